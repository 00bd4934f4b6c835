import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ALL_QUEUES } from '@svc/contracts';
import { SETTINGS } from '@svc/platform';
import { stepQueuesOf } from '@svc/jobs';
import { WorkerDefinition } from '@svc/bootstrap';
import { DATASET_EXPORTER } from '../../apps/dataset-exporter/src/worker.definition';
import { EMBEDDING_WORKER } from '../../apps/embedding-worker/src/worker.definition';
import { EVALUATION_WORKER } from '../../apps/evaluation-worker/src/worker.definition';
import { INGESTION_WORKER } from '../../apps/ingestion-worker/src/worker.definition';
import { PREDICTION_WORKER } from '../../apps/prediction-worker/src/worker.definition';

const ROOT = resolve(__dirname, '../..');
const K8S = join(ROOT, 'deploy', 'k8s');

interface Container {
  name: string;
  image: string;
  ports?: { containerPort: number }[];
  env?: { name: string; value?: string }[];
  livenessProbe?: { httpGet: { path: string; port: number } };
  readinessProbe?: { httpGet: { path: string; port: number } };
}
type Doc = { kind: string; metadata: { name: string }; [key: string]: unknown };

const docs: Doc[] = readdirSync(K8S)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => parseAllDocuments(readFileSync(join(K8S, f), 'utf8')).map((d) => d.toJS() as Doc));
const byKind = (kind: string): Doc[] => docs.filter((d) => d.kind === kind);
const containerOf = (d: Doc): Container =>
  (d as unknown as { spec: { template: { spec: { containers: Container[] } } } }).spec.template.spec
    .containers[0]!;
const apps = readdirSync(join(ROOT, 'apps')).filter((a) =>
  existsSync(join(ROOT, 'apps', a, 'src', 'main.ts')),
);
const knownEnv = new Set(SETTINGS.flatMap((s) => [s.env, ...(s.aliases ?? []).map((a) => a.env)]));
const WORKERS: WorkerDefinition[] = [
  INGESTION_WORKER,
  EMBEDDING_WORKER,
  PREDICTION_WORKER,
  EVALUATION_WORKER,
  DATASET_EXPORTER,
];

describe('deployment manifests agree with the code', () => {
  it('every app has a Deployment running its own image, and the Dockerfile can start it', () => {
    const deployments = new Map(byKind('Deployment').map((d) => [d.metadata.name, containerOf(d)]));
    expect([...deployments.keys()].sort()).toEqual([...apps].sort());
    for (const [name, container] of deployments) expect(container.image).toBe(`svc/${name}:latest`);
    const dockerfile = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('apps/$SVC_APP/src/main.ts');
    expect(dockerfile).toContain('tools/db/migrate.ts');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(existsSync(join(ROOT, 'tools', 'db', 'migrate.ts'))).toBe(true);
    const migrate = byKind('Job').find((j) => j.metadata.name === 'svc-migrate')!;
    expect(containerOf(migrate).image).toBe('svc/migrate:latest');
  });

  it('names only settings the configuration loader knows', () => {
    const names = new Set<string>();
    for (const d of byKind('Deployment')) for (const e of containerOf(d).env ?? []) names.add(e.name);
    for (const c of byKind('ConfigMap'))
      for (const key of Object.keys((c as { data?: object }).data ?? {})) names.add(key);
    const secrets = byKind('Secret').find((s) => s.metadata.name === 'svc-secrets') as
      { stringData: object } | undefined;
    for (const key of Object.keys(secrets!.stringData)) names.add(key);
    // NODE_OPTIONS is Node's own (the prediction worker's heap cap), not a setting of the service.
    expect([...names].filter((n) => !knownEnv.has(n) && n !== 'NODE_OPTIONS')).toEqual([]);
  });

  it('the prediction worker caps its heap below its memory limit, leaving room for DIAMOND', () => {
    const worker = byKind('Deployment').find((d) => d.metadata.name === 'prediction-worker')!;
    const container = containerOf(worker) as Container & { resources?: { limits?: { memory?: string } } };
    const heapMb = Number(
      /--max-old-space-size=(\d+)/.exec(
        container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '',
      )?.[1],
    );
    const limit = container.resources?.limits?.memory ?? '';
    const limitMb = Number(/^(\d+)Gi$/.exec(limit)?.[1]) * 1024;
    expect(heapMb).toBeGreaterThan(0);
    expect(limitMb - heapMb).toBeGreaterThanOrEqual(1024);
  });

  it('probes and ports match: the gateway on its HTTP port, workers on SVC_METRICS_PORT', () => {
    const defaultPort = SETTINGS.find((s) => s.key === 'port')!.default;
    for (const d of byKind('Deployment')) {
      const c = containerOf(d);
      const declared = c.ports![0]!.containerPort;
      const configured = Number(
        c.env?.find((e) => e.name === (d.metadata.name === 'gateway-api' ? 'SVC_PORT' : 'SVC_METRICS_PORT'))
          ?.value,
      );
      expect(configured).toBe(declared);
      if (d.metadata.name === 'gateway-api') expect(declared).toBe(defaultPort);
      expect(c.livenessProbe!.httpGet).toEqual({ path: '/health', port: declared });
      expect(c.readinessProbe!.httpGet).toEqual({ path: '/health/ready', port: declared });
    }
  });

  it('each worker scales on exactly the queues it consumes', () => {
    const scaled = new Map(
      byKind('ScaledObject').map((s) => {
        const spec = (
          s as unknown as {
            spec: { scaleTargetRef: { name: string }; triggers: { metadata: { queueName: string } }[] };
          }
        ).spec;
        return [spec.scaleTargetRef.name, spec.triggers.map((t) => t.metadata.queueName).sort()];
      }),
    );
    for (const worker of WORKERS) {
      expect(scaled.get(worker.name)).toEqual(
        [...worker.jobQueues, ...stepQueuesOf(worker.steps ?? [])].sort(),
      );
    }
    for (const queues of scaled.values()) for (const q of queues) expect(ALL_QUEUES).toContain(q);
  });
});
