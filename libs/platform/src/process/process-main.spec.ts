import { ArtifactStoreUnavailable } from '../artifacts';
import { ConfigError } from '../config/load-config';
import { describeStartupFailure } from './process-main';

describe('describeStartupFailure', () => {
  it('lists bad settings and exits with EX_CONFIG', () => {
    expect(describeStartupFailure('gateway-api', new ConfigError(['SVC_PORT: expected an integer']))).toEqual(
      {
        line: 'gateway-api failed to start: Invalid configuration:\n  - SVC_PORT: expected an integer',
        code: 78,
      },
    );
  });

  it('names an unreachable object store in one line and exits with EX_UNAVAILABLE', () => {
    const error = new ArtifactStoreUnavailable(
      'object store s3://svc at http://minio:9000 is not reachable: refused',
    );
    expect(describeStartupFailure('prediction-worker', error)).toEqual({
      line: 'prediction-worker failed to start: ArtifactStoreUnavailable: object store s3://svc at http://minio:9000 is not reachable: refused',
      code: 69,
    });
  });

  it('prints the stack of anything else and exits with 1', () => {
    const { line, code } = describeStartupFailure('auth-service', new Error('database down'));
    expect(code).toBe(1);
    expect(line).toMatch(/^auth-service failed to start: Error: database down\n\s+at /);
  });
});
