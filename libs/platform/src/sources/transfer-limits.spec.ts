import { sourceLabel, TransferLimits, TransferMeter, transferError } from './transfer-limits';

const limits: TransferLimits = { deadlineMs: 10_000, minBytesPerSecond: 100, rateWindowMs: 2_000 };

describe('TransferMeter', () => {
  it('lets a transfer through while every window averages the minimum rate', () => {
    const meter = new TransferMeter(limits, 0);
    meter.received(150);
    expect(meter.check(1_000)).toBeNull();
    meter.received(50);
    // 200 bytes in 2 s: exactly 100 bytes per second.
    expect(meter.check(2_000)).toBeNull();
    // The next window counts from there: 0 bytes so far, not yet 2 s.
    expect(meter.check(3_999)).toBeNull();
  });

  it('fails a window that averaged less, with what it received', () => {
    const meter = new TransferMeter(limits, 0);
    meter.received(199);
    expect(meter.check(2_000)).toEqual({ kind: 'too_slow', bytes: 199, elapsedMs: 2_000 });
  });

  it('averages over the window, so a burst and a pause within it pass', () => {
    const meter = new TransferMeter(limits, 0);
    meter.received(400);
    expect(meter.check(2_000)).toBeNull();
    // The next window holds nothing at all: the earlier burst does not carry over.
    expect(meter.check(4_000)).toEqual({ kind: 'too_slow', bytes: 0, elapsedMs: 2_000 });
  });

  it('starts a window again while the reader holds the stream back', () => {
    const meter = new TransferMeter(limits, 0);
    meter.held(1_900);
    expect(meter.check(2_100)).toBeNull();
    expect(meter.check(3_899)).toBeNull();
    expect(meter.check(3_900)).toEqual({ kind: 'too_slow', bytes: 0, elapsedMs: 2_000 });
  });

  it('counts the rate from the start of the body, the deadline from the first request', () => {
    const meter = new TransferMeter(limits, 0, 5_000);
    expect(meter.check(6_999)).toBeNull();
    expect(meter.check(7_000)).toMatchObject({ kind: 'too_slow' });
    const fast = new TransferMeter(limits, 0, 5_000);
    fast.received(1_000_000);
    expect(fast.check(9_999)).toBeNull();
    expect(fast.check(10_000)).toEqual({ kind: 'timeout' });
  });

  it('sets no minimum rate at 0, only the deadline', () => {
    const meter = new TransferMeter({ ...limits, minBytesPerSecond: 0 }, 0);
    expect(meter.check(9_000)).toBeNull();
    expect(meter.check(10_000)).toEqual({ kind: 'timeout' });
  });
});

describe('sourceLabel', () => {
  it.each([
    [
      'http://user:pass@mirror.example.org:8080/goa/x.gaf?token=t#f',
      'http://mirror.example.org:8080/goa/x.gaf',
    ],
    ['https://ftp.ebi.ac.uk/pub/go.obo', 'https://ftp.ebi.ac.uk/pub/go.obo'],
    ['not a url', 'the source'],
  ])('shows %s as %s', (source, label) => expect(sourceLabel(source)).toBe(label));
});

describe('transferError', () => {
  it('names the setting that decides, in the code a job fails with', () => {
    expect(transferError({ kind: 'timeout' }, 'http://h/x', limits)).toMatchObject({
      code: 'source_timeout',
      message: 'http://h/x did not finish within 10 s (SVC_SOURCE_DEADLINE_SECONDS)',
    });
    expect(
      transferError({ kind: 'too_slow', bytes: 12, elapsedMs: 2_100 }, 'http://h/x', limits),
    ).toMatchObject({
      code: 'source_too_slow',
      message:
        'http://h/x sent 12 bytes in the last 2 s, less than 100 bytes per second (SVC_SOURCE_MIN_BYTES_PER_SECOND)',
    });
  });
});
