/** Where a limit, a throttle or a lease reads the time from: the system's, or a test's. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
