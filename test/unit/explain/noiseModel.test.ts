import { evenMoveShare, frameOf, measureSegment, relativeMove, restOf } from '../../../src/explain/segmentMath.js';
import { countDispersion, noiseSigmas } from '../../../src/explain/standsOut.js';
import type { GroupRow } from '../../../src/explain/types.js';

const additive = (where: Record<string, string>, baseline: number, current: number): GroupRow => ({
  where,
  baseline: { num: baseline },
  current: { num: current },
});
const ratio = (where: Record<string, string>, b: [number, number], c: [number, number]): GroupRow => ({
  where,
  baseline: { num: b[0], den: b[1] },
  current: { num: c[0], den: c[1] },
});

describe('noiseSigmas: the bar raised for the number of segments compared (Bonferroni)', () => {
  it.each([
    [1, 3],
    [3, 3.32],
    [10, 3.64],
    [200, 4.35],
  ])('among %i segments a move must pass %f standard deviations', (compared, sigmas) => {
    expect(noiseSigmas(compared)).toBeCloseTo(sigmas, 2);
  });
});

describe('countDispersion: how many times Poisson’s variance the counts vary by', () => {
  /** Twelve segments of 1,000 whose Pearson residuals (against a flat whole) are ±r·√φ-ish. */
  const scan = (spread: number) =>
    Array.from({ length: 12 }, (_, i) => {
      const z = [-1.5, -1, -0.7, -0.5, -0.3, -0.1, 0.1, 0.3, 0.5, 0.7, 1, 1.5][i] as number;
      return additive({ d: `v${i}` }, 1000, Math.round(1000 + z * spread * Math.sqrt(2000)));
    });
  const measured = (rows: GroupRow[]) => {
    const frame = frameOf('additive', 1, rows, true);
    return rows.map((r) => measureSegment(frame, r.where, r));
  };

  it('is 1 for counts that vary as Poisson’s, and about 10 for counts that vary ten times more', () => {
    expect(countDispersion('additive', [measured(scan(1))])).toBeLessThan(1.5);
    const tenfold = countDispersion('additive', [measured(scan(Math.sqrt(10)))]);
    expect(tenfold).toBeGreaterThan(5);
    expect(tenfold).toBeLessThan(15);
  });

  it('barely moves when one segment holds a cause, and never goes below the floor', () => {
    const calm = countDispersion('additive', [measured(scan(1))]);
    const caused = scan(1);
    caused[0] = additive({ d: 'v0' }, 1000, 300);
    expect(countDispersion('additive', [measured(caused)])).toBeLessThan(calm * 1.5);
    expect(countDispersion('additive', [measured(scan(0.1))], 1)).toBe(1);
    expect(countDispersion('additive', [measured(scan(0.1))], 0)).toBeLessThan(0.1);
  });

  it('answers 1 when no dimension has five segments of ten or more', () => {
    const rows = [additive({ d: 'a' }, 5, 9), additive({ d: 'b' }, 500, 300)];
    expect(countDispersion('additive', [measured(rows)])).toBe(1);
  });
});

describe('evenMoveShare, restOf and relativeMove', () => {
  it('for an additive metric the even-move share is the child’s baseline share of the parent', () => {
    const rows = [additive({ c: 'BR' }, 400, 200), additive({ c: 'US' }, 600, 610)];
    const frame = frameOf('additive', 1, rows);
    const parent = measureSegment(frame, { c: 'BR' }, rows[0] as GroupRow);
    const child = measureSegment(frame, { c: 'BR', s: 'Vungle' }, additive({}, 100, 10));
    expect(evenMoveShare(frame, parent, child)).toBeCloseTo(0.25, 12);
  });

  it('for a ratio a child that moved like its parent has exactly its even-move share', () => {
    // CPI: the parent's installs doubled on both its pieces, spend flat; the pieces' CPIs differ.
    const rows = [ratio({ c: 'BR' }, [1000, 200], [1000, 400]), ratio({ c: 'US' }, [3000, 300], [3000, 300])];
    const frame = frameOf('ratio', 1, rows);
    const parent = measureSegment(frame, { c: 'BR' }, rows[0] as GroupRow);
    const child = measureSegment(frame, { c: 'BR', a: 'x' }, ratio({}, [800, 50], [800, 100]));
    const share = child.contribution / parent.contribution;
    expect(evenMoveShare(frame, parent, child)).toBeCloseTo(share, 12);
    // …and that share is not its share of the volume (50 of 200 installs): its CPI is far from the whole's.
    expect(Math.abs(share - 0.25)).toBeGreaterThan(0.1);
  });

  it('measures the rest of a parent and how far each moved beyond the whole', () => {
    const rows = [additive({ c: 'BR' }, 158, 357), additive({ c: 'US' }, 4557, 4565)];
    const frame = frameOf('additive', 1, rows, true);
    const parent = measureSegment(frame, { c: 'BR' }, rows[0] as GroupRow);
    const child = measureSegment(frame, { c: 'BR', t: 'interstitial' }, additive({}, 62, 178));
    const rest = restOf(frame, parent, child);
    expect(rest.parts).toEqual({ n0: 96, n1: 179, d0: 0, d1: 0 });
    const k = frame.n1 / frame.n0;
    expect(relativeMove(frame, rest)).toBeCloseTo(179 / (96 * k) - 1, 12);
    // The rest moved almost half as much as the child: not a quiet rest.
    expect(relativeMove(frame, rest) / relativeMove(frame, child)).toBeGreaterThan(0.25);
  });
});
