// Runs the TypeScript sources directly: SWC transpiles (with decorator metadata) and the workspace
// path aliases (@svc/<lib>) resolve to each library's src/index.ts.
const path = require('node:path');
const Module = require('node:module');

const root = path.join(__dirname, '..');
process.env.SWC_NODE_PROJECT ??= path.join(root, 'tsconfig.base.json');

const ALIAS =
  /^@svc\/(contracts|domain|persistence|jobs|bootstrap|platform|inference|use-cases|testing|client)$/;
// The tracing preload's own entry point: it must load before, and without, the rest of the library.
const TRACING = '@svc/platform/tracing';
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  const match = ALIAS.exec(request);
  const target =
    request === TRACING
      ? path.join(root, 'libs', 'platform', 'src', 'tracing', 'index.ts')
      : match
        ? path.join(root, 'libs', match[1], 'src', 'index.ts')
        : request;
  return resolveFilename.call(this, target, ...rest);
};

require('reflect-metadata');
require('@swc-node/register');
