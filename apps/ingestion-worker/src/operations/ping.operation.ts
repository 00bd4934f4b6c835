import { PING, PingPayload } from '@svc/contracts';
import { abortableSleep, defineOperation, JobError } from '@svc/jobs';

/**
 * The operators' probe: records events, optionally sleeps (honouring cancellation and shutdown) and
 * optionally fails with `ping_failed`. Progress counts the seconds slept.
 */
export const pingOperation = defineOperation<PingPayload>({
  spec: PING,
  async execute({ payload, emit, signal, setProgress }) {
    const sleepSeconds = payload.sleep_seconds ?? 0;
    await emit('ping.received', payload.message ?? null, {
      sleep_seconds: sleepSeconds,
      fail: payload.fail === true,
    });
    const wholeSeconds = Math.ceil(sleepSeconds);
    if (wholeSeconds > 0) await setProgress(0, wholeSeconds);
    for (let second = 0; second < wholeSeconds; second += 1) {
      await abortableSleep(Math.min(1, sleepSeconds - second) * 1000, signal);
      await setProgress(second + 1, wholeSeconds);
    }
    if (payload.fail === true) throw new JobError('ping_failed', payload.message ?? 'ping was asked to fail');
    await emit('ping.pong', payload.message ?? null, { slept_seconds: sleepSeconds });
    return { pong: true, message: payload.message ?? null, slept_seconds: sleepSeconds };
  },
});
