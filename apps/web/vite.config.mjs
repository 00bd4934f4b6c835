// The dashboards build: index.html at the root of dist/web, hashed files under dist/web/assets/
// (the gateway serves them at /assets/, a path no API route uses).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  // The contract's generated types and enum lists (npm run openapi).
  resolve: {
    alias: {
      '@svc/client/contract': fileURLToPath(
        new URL('../../libs/client/src/generated/openapi.ts', import.meta.url),
      ),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    // `npx vite --config apps/web/vite.config.mjs` for live editing against a local gateway.
    proxy: { '/v1': 'http://127.0.0.1:8000' },
  },
});
