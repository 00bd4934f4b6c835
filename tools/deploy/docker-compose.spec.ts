import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig, SETTINGS } from '@svc/platform';

// There is no container engine where the tests run: the compose file is checked as data against the
// workspace (its apps), the configuration loader (its settings) and the Kubernetes manifests (ports).

const ROOT = resolve(__dirname, '../..');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  entrypoint?: string[];
  command?: string[];
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const apps = readdirSync(join(ROOT, 'apps')).filter((a) =>
  existsSync(join(ROOT, 'apps', a, 'src', 'main.ts')),
);
const knownEnv = new Set(SETTINGS.flatMap((s) => [s.env, ...(s.aliases ?? []).map((a) => a.env)]));

/** What compose substitutes when the variable is unset: `${NAME:-default}` becomes `default`. */
function interpolateDefaults(value: string): string {
  return value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');
}

/** The port each app serves HTTP (health, metrics) on, as the Kubernetes manifests declare it. */
function manifestPorts(): Map<string, number> {
  const ports = new Map<string, number>();
  for (const file of readdirSync(join(ROOT, 'deploy', 'k8s')).filter((f) => f.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(readFileSync(join(ROOT, 'deploy', 'k8s', file), 'utf8'))) {
      const d = doc.toJS() as {
        kind: string;
        metadata: { name: string };
        spec?: { template?: { spec?: { containers?: { ports?: { containerPort: number }[] }[] } } };
      };
      const port = d.spec?.template?.spec?.containers?.[0]?.ports?.[0]?.containerPort;
      if (d.kind === 'Deployment' && port !== undefined) ports.set(d.metadata.name, port);
    }
  }
  return ports;
}

describe('docker-compose.yml runs the whole service', () => {
  it('builds every app of the workspace, and the migration, from deploy/Dockerfile with its APP', () => {
    for (const name of [...apps, 'migrate']) {
      const service = services[name];
      expect(service).toBeDefined();
      expect(service!.build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile', args: { APP: name } });
      expect(service!.image).toBe(`svc/${name}:latest`);
    }
    expect(existsSync(join(ROOT, 'deploy', 'Dockerfile'))).toBe(true);
  });

  it('starts each app only after the migration, the bucket and healthy PostgreSQL, RabbitMQ and MinIO', () => {
    for (const name of apps) {
      expect(services[name]!.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        'minio-init': { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        rabbitmq: { condition: 'service_healthy' },
        minio: { condition: 'service_healthy' },
      });
    }
    expect(services['migrate']!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services['minio-init']!.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
    for (const infra of ['postgres', 'rabbitmq', 'minio']) expect(services[infra]!.healthcheck).toBeDefined();
    expect(services['minio']!.image).toMatch(/^minio\/minio/);
    expect(services['minio-init']!.image).toMatch(/^minio\/mc/);
    expect(services['rabbitmq']!.image).toContain('management');
  });

  it('gives every app and the migration a valid configuration of known settings', () => {
    const rootDir = mkdtempSync(join(tmpdir(), 'svc-compose-'));
    try {
      for (const name of [...apps, 'migrate']) {
        const environment = services[name]!.environment ?? {};
        expect(Object.keys(environment).filter((key) => !knownEnv.has(key))).toEqual([]);
        const env = Object.fromEntries(
          Object.entries(environment).map(([key, value]) => [key, interpolateDefaults(String(value))]),
        );
        // The image reads config/system.yaml from its working directory, then the environment.
        const config = loadConfig({
          env: { ...env, SVC_CONFIG_FILE: join(ROOT, 'config', 'system.yaml') },
          rootDir,
          onWarning: () => undefined,
        });
        expect(new URL(config.dbUrl).hostname).toBe('postgres');
        expect(new URL(config.amqpUrl).hostname).toBe('rabbitmq');
        expect(config.storageBackend).toBe('s3');
        expect(config.objectStore.endpoint).toBe('minio:9000');
      }
    } finally {
      rmSync(rootDir, { recursive: true, force: true });
    }
  });

  it('shares the MinIO credentials and bucket between the apps, MinIO and the bucket step', () => {
    const env = services['gateway-api']!.environment!;
    const minio = services['minio']!.environment!;
    expect(env['SVC_OBJECT_STORE_ACCESS_KEY']).toBe(minio['MINIO_ROOT_USER']);
    expect(env['SVC_OBJECT_STORE_SECRET_KEY']).toBe(minio['MINIO_ROOT_PASSWORD']);
    expect(services['minio-init']!.environment!['SVC_OBJECT_STORE_BUCKET']).toBe(
      env['SVC_OBJECT_STORE_BUCKET'],
    );
    expect(services['minio-init']!.entrypoint!.join(' ')).toContain('mc mb --ignore-existing');
    for (const secret of ['SVC_JWT_SECRET', 'SVC_BOOTSTRAP_ADMIN_PASSWORD'])
      expect(env[secret]).toMatch(/^\$\{[A-Z_]+:-.+\}$/);
  });

  it('serves each app on the port its settings name, health-checked there; the gateway on 127.0.0.1:8000', () => {
    const manifests = manifestPorts();
    const defaultPort = SETTINGS.find((s) => s.key === 'port')!.default;
    for (const name of apps) {
      const env = services[name]!.environment!;
      const port = Number(name === 'gateway-api' ? env['SVC_PORT'] : env['SVC_METRICS_PORT']);
      expect(port).toBe(manifests.get(name));
      expect(services[name]!.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${port}/health/ready`);
    }
    expect(Number(services['gateway-api']!.environment!['SVC_PORT'])).toBe(defaultPort);
    expect(services['gateway-api']!.ports).toEqual([
      `127.0.0.1:${String(defaultPort)}:${String(defaultPort)}`,
    ]);
    for (const name of apps.filter((a) => a !== 'gateway-api')) expect(services[name]!.ports).toBeUndefined();
  });

  it('still starts PostgreSQL and RabbitMQ on their own for `npm start`', () => {
    for (const [name, port] of [
      ['postgres', 5432],
      ['rabbitmq', 5672],
    ] as const) {
      expect(services[name]!.depends_on).toBeUndefined();
      expect(services[name]!.ports).toContain(`127.0.0.1:${port}:${port}`);
    }
  });
});
