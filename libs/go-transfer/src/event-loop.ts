/**
 * Gives way to the event loop when `everyMs` milliseconds have passed since it last did: a worker
 * scoring thousands of queries, or indexing half a million reference proteins, must still send its
 * broker heartbeats (the broker drops a connection that misses them, and requeues the message being
 * worked on), renew its job leases and hear a cancel. Awaiting it costs a resolved promise until the
 * time is up, then one turn of the event loop.
 */
export function eventLoopPause(everyMs = 50): () => Promise<void> {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < everyMs) return Promise.resolve();
    return new Promise((resolve) =>
      setImmediate(() => {
        last = performance.now();
        resolve();
      }),
    );
  };
}
