import { Infrastructure, openInfrastructure } from '@svc/bootstrap';
import { createSuiteWorld, SuiteWorld, testConfig, waitFor } from '@svc/testing';
import { startRetentionSchedule } from './retention-schedule';

describe('the retention schedule (real PostgreSQL and RabbitMQ, no worker consuming)', () => {
  let world: SuiteWorld;
  let replicas: Infrastructure[] = [];

  beforeAll(async () => {
    world = await createSuiteWorld('retention_schedule');
    const config = testConfig({ ...world.env, SVC_LOG_LEVEL: 'error' });
    replicas = await Promise.all(['replica-a', 'replica-b'].map((name) => openInfrastructure(name, config)));
    await waitFor(async () => (replicas.every((r) => r.broker.isConnected()) ? true : undefined), {
      what: 'both replicas to reach the broker',
    });
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await world?.dispose();
  });

  it('queues one system purge job however many replicas start it, and none again while it is queued', async () => {
    // Every 100 ms on two replicas: a dozen attempts, of which the dedup key admits the first only.
    const schedules = replicas.map((r) => startRetentionSchedule(r, 100));
    await new Promise((resolve) => setTimeout(resolve, 600));
    await Promise.all(schedules.map((task) => task.stop()));
    const rows = await replicas[0]!.db.query<{ n: number; owners: number; dispatched: number }[]>(
      `SELECT count(*)::int AS n, count(owner_user_id)::int AS owners,
              count(*) FILTER (WHERE leased_until IS NULL)::int AS dispatched
         FROM job WHERE operation = 'purge_expired_results' AND status = 'QUEUED' AND submitted_via = 'system'`,
    );
    expect(rows).toEqual([{ n: 1, owners: 0, dispatched: 1 }]);
  });
});
