import { frameOf, measureSegment } from '../../../src/explain/segmentMath.js';
import { beyondCountingNoise } from '../../../src/explain/standsOut.js';
import type { GroupRow } from '../../../src/explain/types.js';

const row = (country: string, baseline: number, current: number, den?: [number, number]): GroupRow => ({
  where: { countryCode: country },
  baseline: den ? { num: baseline, den: den[0] } : { num: baseline },
  current: den ? { num: current, den: den[1] } : { num: current },
});

function judge(rows: GroupRow[], kind: 'additive' | 'ratio' = 'additive') {
  const frame = frameOf(kind, 1, rows, true);
  return rows.map((r) => beyondCountingNoise(frame, measureSegment(frame, r.where, r)));
}

describe('beyondCountingNoise', () => {
  it('does not count a small sample’s wobble as a move (79 → 50 installs beside a whole down 15 %)', () => {
    const rows = [row('BR', 79, 50), row('US', 30, 35), row('MX', 29, 32)];
    expect(judge(rows)[0]).toBe(false);
  });

  it('counts the same relative drop at a hundred times the volume', () => {
    const rows = [row('BR', 7900, 5000), row('US', 3000, 3500), row('MX', 2900, 3200)];
    expect(judge(rows)[0]).toBe(true);
  });

  it('counts an outage (10 → 0) and a collapse (473 → 58) beside a flat whole', () => {
    expect(judge([row('A', 10, 0), row('B', 500, 505), row('C', 480, 478)])[0]).toBe(true);
    expect(judge([row('BR', 473, 58), row('US', 1373, 1380), row('ID', 379, 375)])[0]).toBe(true);
  });

  it('for a ratio over counts: a share that moved (mix) or a ratio that moved (rate) beyond noise', () => {
    // CPI = spend / installs. Installs moved to BR (mix), every CPI flat.
    const mix = [row('BR', 2000, 6000, [1000, 3000]), row('US', 10_000, 10_000, [2000, 2000])];
    expect(judge(mix, 'ratio')[0]).toBe(true);
    // BR's CPI doubled on 1,000 installs (rate).
    const rate = [row('BR', 2000, 4000, [1000, 1000]), row('US', 10_000, 10_000, [2000, 2000])];
    expect(judge(rate, 'ratio')[0]).toBe(true);
    // The same doubling on 4 installs is noise.
    const tiny = [row('BR', 8, 16, [4, 4]), row('US', 10_000, 10_000, [2000, 2000])];
    expect(judge(tiny, 'ratio')[0]).toBe(false);
  });
});
