import {
  chi2MeanBelow,
  dispersionFor,
  noiseSigmas,
  partNoise,
  partZ,
  scanDispersion,
  sizeGrowth,
} from '../../../src/explain/noise.js';
import { frameOf, measureSegment, wholeParts } from '../../../src/explain/segmentMath.js';
import { movedAsWhole, standsOut } from '../../../src/explain/standsOut.js';
import type { GroupRow } from '../../../src/explain/types.js';

const row = (country: string, baseline: number, current: number, den?: [number, number]): GroupRow => ({
  where: { countryCode: country },
  baseline: den ? { num: baseline, den: den[0] } : { num: baseline },
  current: den ? { num: current, den: den[1] } : { num: current },
});

/** Each row judged against the rest of the whole, with a noise model of counts (dispersion 1). */
function judge(rows: GroupRow[], kind: 'additive' | 'ratio' = 'additive', num: 'count' | 'amount' = 'count') {
  const plain = frameOf(kind, 1, rows);
  const counted = { kind: 'count' as const, dispersion: 1, byDimension: new Map() };
  const frame = {
    ...plain,
    noise: kind === 'ratio' ? { num: { ...counted, kind: num }, den: counted } : { num: counted },
  };
  const segments = rows.map((r) => measureSegment(frame, r.where, r));
  return segments.map((s) =>
    standsOut(frame, s, {
      within: wholeParts(frame),
      compared: rows.length,
      siblings: segments,
      direction: Math.sign(frame.change),
    }),
  );
}

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

describe('standsOut: beyond the rest of the whole, and beyond noise', () => {
  it('does not count a small sample’s wobble as a move (79 → 50 installs beside a whole down 15 %)', () => {
    expect(judge([row('BR', 79, 50), row('US', 30, 35), row('MX', 29, 32)])[0]).toBe(false);
  });

  it('counts the same relative drop at a hundred times the volume', () => {
    expect(judge([row('BR', 7900, 5000), row('US', 3000, 3500), row('MX', 2900, 3200)])[0]).toBe(true);
  });

  it('counts an outage (20 → 0) and a collapse (473 → 58) beside a flat whole', () => {
    expect(judge([row('A', 20, 0), row('B', 500, 505), row('C', 480, 478)])[0]).toBe(true);
    expect(judge([row('BR', 473, 58), row('US', 1373, 1380), row('ID', 379, 375)])[0]).toBe(true);
  });

  it('lets one value of a two-valued dimension stand out (IOS spend ×2.5)', () => {
    expect(judge([row('IOS', 500, 1250), row('ANDROID', 800, 832)])).toEqual([true, false]);
  });

  it('for a ratio: a share that moved (mix) or a ratio that moved (rate) beyond noise', () => {
    const mix = [row('BR', 2000, 6000, [1000, 3000]), row('US', 10_000, 10_000, [2000, 2000])];
    expect(judge(mix, 'ratio')[0]).toBe(true);
    const rate = [row('BR', 2000, 4000, [1000, 1000]), row('US', 10_000, 10_000, [2000, 2000])];
    expect(judge(rate, 'ratio')[0]).toBe(true);
    const tiny = [row('BR', 8, 16, [4, 4]), row('US', 10_000, 10_000, [2000, 2000])];
    expect(judge(tiny, 'ratio')[0]).toBe(false);
  });

  it('models a conversion ratio’s numerator: 12 → 16 clicks on a million impressions is noise (CTR)', () => {
    const ctr = [row('BR', 12, 16, [1_000_000, 1_000_000]), row('US', 5000, 5000, [40_000_000, 40_000_000])];
    expect(judge(ctr, 'ratio')[0]).toBe(false);
    const real = [row('BR', 1200, 1600, [1_000_000, 1_000_000]), row('US', 5000, 5000, [40_000_000, 40_000_000])];
    expect(judge(real, 'ratio')[0]).toBe(true);
  });

  it('lets a segment with spend and no installs stand out in a CPI rise', () => {
    const rows = [
      row('X', 100, 600, [0, 0]),
      row('US', 10_000, 10_000, [2000, 2000]),
      row('BR', 3000, 3000, [600, 600]),
    ];
    expect(judge(rows, 'ratio', 'amount')[0]).toBe(true);
  });
});

describe('partZ and the dispersion', () => {
  it('is the move against the rest in standard deviations; 0 without a rest to compare with', () => {
    expect(partZ([100, 200], [1000, 1000], 1)).toBeGreaterThan(5);
    expect(partZ([100, 200], [0, 0], 1)).toBe(0);
  });

  /** Twelve segments of 1,000 whose Pearson residuals (against a flat whole) are ±r·√φ-ish. */
  const scan = (spread: number) =>
    [-1.5, -1, -0.7, -0.5, -0.3, -0.1, 0.1, 0.3, 0.5, 0.7, 1, 1.5].map(
      (z) => [1000, Math.round(1000 + z * spread * Math.sqrt(2000))] as const,
    );

  it('is about 1 for counts that vary as Poisson’s, about 10 for ten times more, and barely moves for one cause', () => {
    expect(scanDispersion('count', scan(1))).toBeLessThan(1.5);
    const tenfold = scanDispersion('count', scan(Math.sqrt(10))) ?? 0;
    expect(tenfold).toBeGreaterThan(5);
    expect(tenfold).toBeLessThan(15);
    const caused = scan(1);
    caused[0] = [1000, 300];
    expect(scanDispersion('count', caused)).toBeLessThan((scanDispersion('count', scan(1)) ?? 0) * 1.5);
  });

  /** The sandbox's clicks by country, 2026-11-16 against 2026-11-09: their rows' own variance is 19–27 times Poisson's. */
  const clicksByCountry = [
    [23542, 23403],
    [6201, 6761],
    [6108, 5951],
    [5929, 6574],
    [5290, 5406],
    [5112, 4567],
    [4958, 4335],
    [4657, 4812],
    [3711, 3844],
    [3451, 3215],
    [2990, 2611],
    [2849, 2966],
  ] as const;

  it('is near the rows’ own variance for heavy-tailed counts (trimmed mean 18; the median of the squares said 8)', () => {
    const phi = scanDispersion('count', clicksByCountry) ?? 0;
    expect(phi).toBeGreaterThan(14);
    expect(phi).toBeLessThan(27);
  });

  it('divides the trimmed mean by what χ²₁ averages below the same quantile: φ back from φ·χ²₁ draws', () => {
    let seed = 7;
    const uniform = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return (seed + 0.5) / 2147483648;
    };
    const phi = 4;
    // 400 segments of 10,000 around a flat whole, each off by √(φ·10,000)·z, z standard normal (Box–Muller).
    const pairs = Array.from({ length: 400 }, () => {
      const z = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      return [10_000, 10_000 + z * Math.sqrt(phi * 20_000)] as const;
    });
    expect(scanDispersion('count', pairs)).toBeGreaterThan(phi * 0.85);
    expect(scanDispersion('count', pairs)).toBeLessThan(phi * 1.15);
    expect(chi2MeanBelow(1)).toBe(1);
    expect(chi2MeanBelow(0.9)).toBeCloseTo(0.6235, 3);
  });

  it('floors counts at 1 but not amounts, whose unit is arbitrary (dollars or cents)', () => {
    expect(scanDispersion('count', scan(0.1))).toBe(1);
    expect(scanDispersion('amount', scan(0.1))).toBeLessThan(0.1);
    const cents = scan(1).map(([b, c]) => [b * 100, c * 100] as const);
    expect(scanDispersion('amount', cents)).toBeCloseTo((scanDispersion('amount', scan(1)) ?? 0) * 100, 6);
  });

  it('says so when it cannot be measured: 1 for counts, undefined for amounts (no plain Poisson on dollars)', () => {
    const few = new Map([['d', [[5, 9] as const, [500, 300] as const]]]);
    expect(partNoise('count', few).dispersion).toBe(1);
    expect(partNoise('amount', few).dispersion).toBeUndefined();
  });
});

describe('movedAsWhole: a strong parent beats its piece', () => {
  const frame = frameOf('additive', 1, [row('AppLovin', 1000, 2500), row('rest', 9000, 9000)]);
  it('keeps the parent when its other pieces moved like the piece (the plant is on the parent)', () => {
    expect(movedAsWhole(frame, { n0: 1000, n1: 2500, d0: 0, d1: 0 }, { n0: 900, n1: 2250, d0: 0, d1: 0 })).toBe(true);
  });
  it('takes the piece when the parent’s other pieces moved as the outside did', () => {
    expect(movedAsWhole(frame, { n0: 1000, n1: 2500, d0: 0, d1: 0 }, { n0: 600, n1: 2100, d0: 0, d1: 0 })).toBe(false);
  });
});

describe('sizeGrowth: segments that wobble more the larger they are (Taylor’s law)', () => {
  /** Standard normal quantiles of n evenly spread probabilities (Abramowitz & Stegun 26.2.23), interleaved across sizes. */
  const zs = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const u = (((i * 37) % n) + 0.5) / n;
      const t = Math.sqrt(-2 * Math.log(Math.min(u, 1 - u)));
      const q =
        t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3);
      return Math.sign(u - 0.5) * q;
    });
  const sizes = (n: number) => Array.from({ length: n }, (_, i) => Math.round(50 * 60 ** (i / (n - 1))));
  /** Sixty campaigns of 50 to 3,000 clicks, each moving by a share of its volume (sd 15 %). */
  const campaigns = () => {
    const z = zs(60);
    return sizes(60).map((b, i) => [b, Math.round(b * (1 + 0.15 * (z[i] ?? 0)))] as const);
  };
  /** The same sizes moving as Poisson counts do. */
  const poisson = () => {
    const z = zs(60);
    return sizes(60).map((b, i) => [b, Math.round(b + Math.sqrt(2 * b) * (z[i] ?? 0))] as const);
  };

  it('is measured for campaigns that move by a share of their volume, with a slope near 1', () => {
    const grows = sizeGrowth('count', campaigns());
    expect(grows).toBeDefined();
    expect(grows?.slope).toBeGreaterThan(0.6);
  });

  it('is not measured for Poisson-like counts, nor for a dimension of a dozen values', () => {
    expect(sizeGrowth('count', poisson())).toBeUndefined();
    expect(sizeGrowth('count', campaigns().slice(0, 12))).toBeUndefined();
  });

  it('a large campaign’s ordinary day (1,440 → 742 clicks) does not stand out; an outage (→ 144) does', () => {
    const scanned = campaigns();
    const judgeCampaign = (current: number) => {
      const rows: GroupRow[] = [...scanned, [1440, current] as const].map(([b, c], i) => ({
        where: { campaign: `c${i}` },
        baseline: { num: b },
        current: { num: c },
      }));
      const plain = frameOf('additive', 1, rows);
      const frame = {
        ...plain,
        noise: {
          num: partNoise('count', new Map([['campaign', rows.map((r) => [r.baseline.num, r.current.num] as const)]])),
        },
      };
      const segments = rows.map((r) => measureSegment(frame, r.where, r));
      const big = segments[segments.length - 1];
      if (big === undefined) throw new Error('no segment');
      const gate = {
        within: wholeParts(frame),
        compared: rows.length,
        siblings: segments,
        direction: Math.sign(big.contribution),
      };
      // The dispersion that applies at 1,440 clicks is well above the campaigns' median.
      const noise = frame.noise.num;
      expect(dispersionFor(noise, ['campaign'], 1440)).toBeGreaterThan(2 * (noise.dispersion ?? 0));
      return standsOut({ ...frame, change: Math.sign(big.contribution) }, big, gate);
    };
    expect(judgeCampaign(742)).toBe(false);
    expect(judgeCampaign(144)).toBe(true);
  });
});
