import { DEFAULT_FAULTS, mergeFaults, seededRandom } from '../../../src/sandbox/faults.js';

describe('faults', () => {
  it('merges a partial update and keeps the rest', () => {
    const next = mergeFaults(DEFAULT_FAULTS, { http5xxRate: 0.5, latencyMs: 20 });
    expect(next).toMatchObject({ http5xxRate: 0.5, latencyMs: 20, tokenTtlSeconds: 7200 });
  });

  it.each([
    [{ http5xxRate: 1.5 }, /http5xxRate/],
    [{ asyncFailureRate: -0.1 }, /asyncFailureRate/],
    [{ latencyMs: -1 }, /latencyMs/],
    [{ http5xxStatus: 404 }, /5xx/],
  ])('refuses %j', (update, message) => {
    expect(() => mergeFaults(DEFAULT_FAULTS, update)).toThrow(message);
  });

  it('draws the same sequence for the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(xs).toEqual(Array.from({ length: 5 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
