import { eventLoopPause } from './event-loop';

describe('eventLoopPause', () => {
  afterEach(() => jest.useRealTimers());

  it('resolves at once until the interval has passed, then only after a turn of the event loop', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    const pause = eventLoopPause(50);
    let resolved = false;
    await pause();
    jest.advanceTimersByTime(60);
    const waiting = pause().then(() => (resolved = true));
    await Promise.resolve();
    // Past the interval: it waits for setImmediate, which has not run yet.
    expect(resolved).toBe(false);
    jest.runOnlyPendingTimers();
    await waiting;
    expect(resolved).toBe(true);
    // And the clock starts again from that turn.
    let again = false;
    const next = pause().then(() => (again = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(again).toBe(true);
    await next;
  });
});
