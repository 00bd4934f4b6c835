import { BrokerUnavailableError } from '../messaging/message-broker';
import { isDatabaseUnavailable, isInfrastructureUnavailable } from './unavailable';

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    [
      'a fast shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    [
      'a server starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['a connection exception class', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a dropped socket', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a wrapped driver error',
      { message: 'Query failed', driverError: { code: '57P01', message: 'terminating' } },
    ],
  ])('recognises %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error at or near'), { code: '42601' })],
    ['a plain error', new Error('embedding backend failed')],
    ['a non-error value', 'ECONNREFUSED'],
    ['null', null],
  ])('does not take %s for an outage', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('counts an unreachable broker as an outage of the infrastructure, not a bad query', () => {
    const broker = new BrokerUnavailableError('the message broker is not reachable');
    expect(isInfrastructureUnavailable(broker)).toBe(true);
    expect(isDatabaseUnavailable(broker)).toBe(false);
    expect(isInfrastructureUnavailable(new Error('bad payload'))).toBe(false);
  });
});
