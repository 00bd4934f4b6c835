import { shutdownProcessTracing } from '@svc/platform/tracing';
import { startStandaloneTracing } from './tracing';

describe('standalone tracing preload', () => {
  afterEach(() => shutdownProcessTracing());

  it('starts tracing with SVC_OTEL_ENABLED=on although the standalone mode sets no database or broker URL', () => {
    const handle = startStandaloneTracing({
      SVC_OTEL_ENABLED: 'on',
      SVC_OTEL_ENDPOINT: 'http://127.0.0.1:9',
      SVC_LOG_LEVEL: 'error',
    });
    expect(handle.active).toBe(true);
  });

  it('stays off when tracing is not enabled', () => {
    expect(startStandaloneTracing({ SVC_LOG_LEVEL: 'error' }).active).toBe(false);
  });
});
