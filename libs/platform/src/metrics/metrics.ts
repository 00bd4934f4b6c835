import type * as PromClient from 'prom-client';

type Labels = Record<string, string | number>;

interface Counter {
  inc(labels: Labels, value?: number): void;
}
interface Gauge {
  inc(value?: number): void;
  dec(value?: number): void;
  set(value: number): void;
}
interface Histogram {
  observe(labels: Labels, seconds: number): void;
}

/**
 * The specification's collectors in one registry per process. prom-client is loaded at run time:
 * when it is missing the registry reports `available = false` and `/metrics` answers 503.
 */
export class Metrics {
  readonly available: boolean;
  readonly contentType: string;
  readonly httpRequestsTotal: Counter;
  readonly httpRequestDurationSeconds: Histogram;
  readonly httpRequestsInFlight: Gauge;
  readonly jobsTotal: Counter;
  readonly jobDurationSeconds: Histogram;
  readonly embeddingsBatchSeconds: Histogram;
  readonly predictionsBatchSeconds: Histogram;
  private readonly registry: PromClient.Registry | null;
  private poolProbe: () => number = () => 0;

  constructor(
    // Loaded lazily so that a build without prom-client still starts and answers /metrics with 503.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loadClient: () => typeof PromClient = () => require('prom-client') as typeof PromClient,
  ) {
    let client: typeof PromClient | null = null;
    try {
      client = loadClient();
    } catch {
      client = null;
    }
    this.available = client !== null;
    if (client === null) {
      this.registry = null;
      this.contentType = 'text/plain';
      const noop = {
        inc: () => undefined,
        dec: () => undefined,
        set: () => undefined,
        observe: () => undefined,
      };
      this.httpRequestsTotal = noop;
      this.httpRequestDurationSeconds = noop;
      this.httpRequestsInFlight = noop;
      this.jobsTotal = noop;
      this.jobDurationSeconds = noop;
      this.embeddingsBatchSeconds = noop;
      this.predictionsBatchSeconds = noop;
      return;
    }
    const registry = new client.Registry();
    this.registry = registry;
    this.contentType = registry.contentType;
    client.collectDefaultMetrics({ register: registry });
    const registers = [registry];
    this.httpRequestsTotal = new client.Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpRequestDurationSeconds = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration in seconds',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.httpRequestsInFlight = new client.Gauge({
      name: 'http_requests_in_flight',
      help: 'HTTP requests being served',
      registers,
    });
    const probe = (): number => this.poolProbe();
    new client.Gauge({
      name: 'db_pool_in_use',
      help: 'Database connections checked out of the pool',
      registers,
      collect() {
        this.set(probe());
      },
    });
    this.jobsTotal = new client.Counter({
      name: 'jobs_total',
      help: 'Jobs finished by this process, by operation and final status',
      labelNames: ['operation', 'status'],
      registers,
    });
    this.jobDurationSeconds = new client.Histogram({
      name: 'job_duration_seconds',
      help: 'Wall time of job executions in seconds',
      labelNames: ['operation', 'status'],
      buckets: [0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    });
    this.embeddingsBatchSeconds = new client.Histogram({
      name: 'embeddings_batch_seconds',
      help: 'Wall time of embedding batches in seconds',
      labelNames: ['backend'],
      registers,
    });
    this.predictionsBatchSeconds = new client.Histogram({
      name: 'predictions_batch_seconds',
      help: 'Wall time of prediction batches in seconds',
      labelNames: ['backend'],
      registers,
    });
  }

  /** The gauge `db_pool_in_use` reads this on every scrape. */
  setPoolProbe(probe: () => number): void {
    this.poolProbe = probe;
  }

  async render(): Promise<string> {
    if (this.registry === null) throw new Error('metrics library not installed');
    return this.registry.metrics();
  }
}
