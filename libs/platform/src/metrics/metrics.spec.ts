import { Metrics } from './metrics';

describe('Metrics', () => {
  it('exposes every collector of the specification', async () => {
    const metrics = new Metrics();
    metrics.setPoolProbe(() => 3);
    metrics.httpRequestsTotal.inc({ method: 'GET', route: '/v1/jobs', status: 200 });
    metrics.jobsTotal.inc({ operation: 'ping', status: 'SUCCEEDED' });
    const text = await metrics.render();
    for (const name of [
      'jobs_total',
      'job_duration_seconds',
      'embeddings_batch_seconds',
      'predictions_batch_seconds',
      'db_pool_in_use',
      'http_requests_total',
      'http_request_duration_seconds',
      'http_requests_in_flight',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('db_pool_in_use 3');
    expect(text).toContain('jobs_total{operation="ping",status="SUCCEEDED"} 1');
  });

  it('reports unavailable when the library cannot be loaded', async () => {
    const metrics = new Metrics(() => {
      throw new Error("Cannot find module 'prom-client'");
    });
    expect(metrics.available).toBe(false);
    metrics.httpRequestsTotal.inc({ method: 'GET', route: '/', status: 200 });
    await expect(metrics.render()).rejects.toThrow('not installed');
  });
});
