import { type PacerClock, PacingError, RatePacer } from '../../../src/slackapi/RatePacer.js';
import { limitFor, paceLowerBoundMs, SLACK_RATE_SETTINGS } from '../../../src/slackapi/rateLimits.js';

/** A clock that moves only when the test says so. */
class FakeClock implements PacerClock {
  t = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private id = 0;

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const id = ++this.id;
    this.timers.set(id, { at: this.t + ms, fn });
    return () => this.timers.delete(id);
  }

  get pending(): number {
    return this.timers.size;
  }

  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
      await flush();
    }
    this.t = end;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

function setup(options: { maxQueued?: number } = {}) {
  const clock = new FakeClock();
  const pacer = new RatePacer(SLACK_RATE_SETTINGS, { clock, ...options });
  const granted: Array<[string, number]> = [];
  const take = (label: string, method: string, opts: Parameters<RatePacer['acquire']>[1] = {}) =>
    pacer.acquire(method, opts).then((waited) => {
      granted.push([label, clock.now()]);
      return waited;
    });
  return { clock, pacer, granted, take };
}

describe('RatePacer', () => {
  it('lets a burst go at once, then paces a Tier 3 method at 50 per minute', async () => {
    const { clock, granted, take } = setup();
    const { burst } = limitFor('chat.update');
    for (let i = 0; i < burst + 3; i++) void take(`u${i}`, 'chat.update');
    await flush();
    expect(granted).toHaveLength(burst);
    await clock.advance(1199);
    expect(granted).toHaveLength(burst);
    await clock.advance(1);
    expect(granted.at(-1)).toEqual([`u${burst}`, 1200]);
    await clock.advance(2400);
    expect(granted.slice(burst).map(([, at]) => at)).toEqual([1200, 2400, 3600]);
    expect(clock.pending).toBe(0);
  });

  it('never grants more than the window count in one window, bursts included', async () => {
    const clock = new FakeClock();
    const settings = { windowMs: 1000, overrides: { 'chat.update': { perWindow: 5, burst: 5 } } };
    const pacer = new RatePacer(settings, { clock });
    const at: number[] = [];
    for (let i = 0; i < 7; i++) void pacer.acquire('chat.update').then(() => at.push(clock.now()));
    await flush();
    await clock.advance(3000);
    // Five at once; the sixth when the first has left the window (1 000 ms plus a 50 ms guard for
    // the request's way to Slack), not 200 ms later as the rate alone would allow.
    expect(at).toEqual([0, 0, 0, 0, 0, 1050, 1050]);
  });

  it('posts at most about one message per second per channel, and channels do not wait for each other', async () => {
    const { clock, granted, take } = setup();
    for (let i = 0; i < 5; i++) void take(`a${i}`, 'chat.postMessage', { channel: 'C1' });
    void take('b0', 'chat.postMessage', { channel: 'C2' });
    await flush();
    expect(granted.map(([l]) => l)).toEqual(['a0', 'a1', 'a2', 'b0']);
    await clock.advance(2000);
    expect(granted.slice(4)).toEqual([
      ['a3', 1000],
      ['a4', 2000],
    ]);
  });

  it('serves an interactive call before scheduled calls that waited longer', async () => {
    const { clock, granted, take } = setup();
    for (let i = 0; i < 6; i++) void take(`s${i}`, 'chat.postMessage', { channel: 'C1', lane: 'scheduled' });
    await flush();
    void take('you', 'chat.postMessage', { channel: 'C1', lane: 'interactive' });
    await clock.advance(1000);
    expect(granted.map(([l]) => l)).toEqual(['s0', 's1', 's2', 'you']);
    await clock.advance(3000);
    expect(granted.map(([l]) => l)).toEqual(['s0', 's1', 's2', 'you', 's3', 's4', 's5']);
  });

  it('keeps part of a method budget for interactive calls during a scheduled burst', async () => {
    const { granted, take } = setup();
    const { burst } = limitFor('files.getUploadURLExternal');
    const reserve = Math.floor(burst * 0.2);
    expect(reserve).toBeGreaterThan(0);
    for (let i = 0; i < burst; i++) void take(`s${i}`, 'files.getUploadURLExternal', { lane: 'scheduled' });
    await flush();
    expect(granted).toHaveLength(burst - reserve);
    void take('you', 'files.getUploadURLExternal');
    await flush();
    expect(granted.at(-1)?.[0]).toBe('you');
  });

  it('after a 429 waits out Retry-After, then lets one call through and paces the rest', async () => {
    const { clock, pacer, granted, take } = setup();
    pacer.penalize('chat.update', undefined, 3000);
    void take('first', 'chat.update');
    void take('second', 'chat.update');
    await clock.advance(2999);
    expect(granted).toEqual([]);
    await clock.advance(1);
    expect(granted).toEqual([['first', 3000]]);
    await clock.advance(1200);
    expect(granted).toEqual([
      ['first', 3000],
      ['second', 4200],
    ]);
  });

  it('reports how long a call waited', async () => {
    const { clock, pacer, take } = setup();
    pacer.penalize('views.publish', undefined, 500);
    const waited = take('x', 'views.publish');
    await clock.advance(500);
    await expect(waited).resolves.toBe(500);
  });

  it('rejects a waiting call at once when its signal aborts, and leaves no timer behind', async () => {
    const { clock, pacer } = setup();
    pacer.penalize('chat.update', undefined, 60_000);
    const controller = new AbortController();
    const waiting = pacer.acquire('chat.update', { signal: controller.signal });
    await flush();
    expect(pacer.queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ reason: 'aborted', code: 'SLACK_PACING_ABORTED', retryable: false });
    expect(pacer.queued).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('refuses a call whose signal is already aborted', async () => {
    const { pacer } = setup();
    await expect(pacer.acquire('chat.update', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(PacingError);
  });

  it('fails a call that waits longer than maxWaitMs, as retryable', async () => {
    const { clock, pacer } = setup();
    pacer.penalize('chat.update', undefined, 10_000);
    const waiting = pacer.acquire('chat.update', { maxWaitMs: 2000 });
    const settled = waiting.catch((error: unknown) => error);
    await clock.advance(2000);
    const error = await settled;
    expect(error).toBeInstanceOf(PacingError);
    expect(error).toMatchObject({ reason: 'timeout', retryable: true });
  });

  it('refuses calls beyond its queue bound instead of growing without limit', async () => {
    const { pacer } = setup({ maxQueued: 2 });
    pacer.penalize('chat.update', undefined, 10_000);
    void pacer.acquire('chat.update').catch(() => {});
    void pacer.acquire('chat.update').catch(() => {});
    await expect(pacer.acquire('chat.update')).rejects.toMatchObject({ reason: 'queue_full' });
    pacer.close();
    expect(pacer.queued).toBe(0);
  });

  it('paces an unknown method as Tier 2', () => {
    expect(limitFor('reactions.add')).toMatchObject({ tier: 'tier2', perWindow: 20 });
  });

  it.each([
    ['chat.postMessage', 'special'],
    ['chat.update', 'tier3'],
    ['chat.postEphemeral', 'tier4'],
    ['files.getUploadURLExternal', 'tier4'],
    ['files.completeUploadExternal', 'tier4'],
    ['views.publish', 'tier4'],
    ['conversations.history', 'tier3'],
    ['users.info', 'tier4'],
    ['apps.connections.open', 'tier1'],
    ['auth.test', 'special'],
  ])('knows %s is %s', (method, tier) => {
    expect(limitFor(method).tier).toBe(tier);
  });

  it('delivers 200 digests due at once within 5 % of the time the limits allow, answering a person meanwhile at once', async () => {
    const { clock, pacer } = setup();
    const scheduled = { lane: 'scheduled' as const };
    // A digest: the message, then a chart and a CSV, each a getUploadURLExternal and a completeUploadExternal.
    const digest = async (i: number) => {
      await pacer.acquire('chat.postMessage', { channel: `C${i}`, ...scheduled });
      for (let file = 0; file < 2; file++) {
        await pacer.acquire('files.getUploadURLExternal', scheduled);
        await pacer.acquire('files.completeUploadExternal', scheduled);
      }
      return clock.now();
    };
    const done: number[] = [];
    for (let i = 0; i < 200; i++) void digest(i).then((at) => done.push(at));
    const interactiveWaits: number[] = [];
    while (done.length < 200) {
      await clock.advance(100);
      await new Promise((resolve) => setImmediate(resolve));
      if (clock.now() % 30_000 === 0) interactiveWaits.push(await pacer.acquire('files.getUploadURLExternal'));
    }
    const bound = paceLowerBoundMs({
      'chat.postMessage': 200,
      'files.getUploadURLExternal': 400 + interactiveWaits.length,
      'files.completeUploadExternal': 400,
    });
    const took = Math.max(...done);
    expect(bound).toBeGreaterThan(200_000);
    expect(took / bound).toBeLessThan(1.05);
    expect(interactiveWaits.length).toBeGreaterThan(5);
    expect(Math.max(...interactiveWaits)).toBe(0);
  });

  it.each([
    [{ 'files.getUploadURLExternal': 400 }, {}, 229_800],
    [{ 'files.getUploadURLExternal': 17 }, {}, 0],
    [{ 'files.getUploadURLExternal': 408 }, {}, 240_000],
    [{ 'chat.postMessage': 200 }, {}, 30_000],
    [{ 'chat.postMessage': 5 }, { 'chat.postMessage': 5 }, 2_000],
    [{ 'chat.update': 59, 'views.publish': 10 }, {}, 60_000],
  ])('bounds the time of %j (per channel %j) below by %d ms', (counts, perChannel, expected) => {
    expect(paceLowerBoundMs(counts, SLACK_RATE_SETTINGS, perChannel)).toBeCloseTo(expected, 6);
  });
});
