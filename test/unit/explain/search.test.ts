import { explain } from '../../../src/explain/index.js';
import {
  canKeep,
  decideDiffuse,
  drill,
  drillPlan,
  drillVerdict,
  explainedEnough,
  findOffset,
  generalize,
  preferTwin,
  rank,
  scan,
} from '../../../src/explain/search.js';
import { type Frame, frameOf, measureSegment, type Segment } from '../../../src/explain/segmentMath.js';
import type { GroupQuery, GroupRow, GroupSource, Where } from '../../../src/explain/types.js';

const row = (where: Where, baseline: number, current: number): GroupRow => ({
  where,
  baseline: { num: baseline },
  current: { num: current },
});
const counted = (frame: Frame): Frame => ({
  ...frame,
  noise: { num: { kind: 'count', dispersion: 1, byDimension: new Map() } },
});

/** Two scans of the same leaves: platform (two values) and country (four). */
function scans(leaves: [string, string, number, number][]) {
  const by = (i: 0 | 1, name: string) => {
    const sums = new Map<string, [number, number]>();
    for (const leaf of leaves) {
      const [b, c] = sums.get(leaf[i]) ?? [0, 0];
      sums.set(leaf[i], [b + leaf[2], c + leaf[3]]);
    }
    return [...sums].map(([v, [b, c]]) => row({ [name]: v }, b, c));
  };
  const platform = by(0, 'appPlatform');
  const frame = counted(frameOf('additive', 1, platform));
  const measured = new Map<string, Segment[]>([
    ['appPlatform', platform.map((r) => measureSegment(frame, r.where, r))],
    ['countryCode', by(1, 'countryCode').map((r) => measureSegment(frame, r.where, r))],
  ]);
  return { frame, measured };
}

const leaves: [string, string, number, number][] = [
  ['IOS', 'US', 4000, 10_000],
  ['IOS', 'BR', 1000, 2500],
  ['ANDROID', 'US', 5000, 5050],
  ['ANDROID', 'BR', 3000, 2990],
  ['IOS', 'DE', 500, 1250],
  ['ANDROID', 'DE', 2000, 2010],
  ['IOS', 'JP', 500, 1250],
  ['ANDROID', 'JP', 2000, 1995],
];

describe('scan', () => {
  it('ranks by what a segment explains, and lets one value of a two-valued dimension stand out', () => {
    const { frame, measured } = scans(leaves);
    const { candidates, concentration } = scan(frame, measured, 1, 0);
    expect(candidates[0]?.segment.where).toEqual({ appPlatform: 'IOS' });
    expect(candidates[0]?.standsOut).toBe(true);
    expect(concentration.get('appPlatform')).toBeGreaterThan(0.95);
  });
});

describe('drillPlan', () => {
  it('drills into concentrated dimensions not yet in the segment, the most concentrated first', () => {
    const segment = { where: { appPlatform: 'IOS' } } as unknown as Segment;
    const concentration = new Map([
      ['appPlatform', 1],
      ['countryCode', 0.6],
      ['source', 0.1],
      ['adType', 0.8],
    ]);
    expect(drillPlan(concentration, segment, ['countryCode', 'appPlatform', 'adType', 'source'])).toEqual([
      'adType',
      'countryCode',
    ]);
  });
});

describe('drill and generalize', () => {
  const { frame, measured } = scans(leaves);
  const ios = measured.get('appPlatform')?.find((s) => s.where.appPlatform === 'IOS') as Segment;
  const pieces = leaves
    .filter(([p]) => p === 'IOS')
    .map(([p, c, b, n]) => measureSegment(frame, { appPlatform: p, countryCode: c }, row({}, b, n)));

  it('keeps a parent that moved as a whole (every iOS country ×2.5)', () => {
    expect(drill(frame, ios, pieces, 0)).toBeUndefined();
  });

  it('takes a piece when the rest of the parent moved as the outside did', () => {
    const only = pieces.map((p) =>
      p.where.countryCode === 'US' ? p : measureSegment(frame, p.where, row({}, p.parts.n0, p.parts.n0)),
    );
    const parent = measureSegment(frame, { appPlatform: 'IOS' }, row({}, 6000, 6000 + 6000));
    expect(drill(frame, parent, only, 0)?.where).toEqual({ appPlatform: 'IOS', countryCode: 'US' });
  });

  it('generalizes a drilled piece to a first-scan segment that moved as a whole', () => {
    const { candidates } = scan(frame, measured, 1, 0);
    const found = pieces.find((p) => p.where.countryCode === 'US') as Segment;
    const us = candidates.find((c) => c.segment.where.countryCode === 'US')?.segment as Segment;
    expect(generalize(frame, found, us, candidates).where).toEqual({ appPlatform: 'IOS' });
  });
});

describe('twins: two dimensions that nearly coincide', () => {
  // AppLovin's installs by ad type and by ad size: its playable ads (×2.5) are nearly all 320x480.
  const appLovin = row({ source: 'AppLovin' }, 1580, 2240);
  const frame = counted(frameOf('additive', 1, [appLovin, row({ source: 'Unity' }, 1580, 1610)]));
  const parent = measureSegment(frame, appLovin.where, appLovin);
  const piece = (where: Where, baseline: number, current: number) =>
    measureSegment(frame, { source: 'AppLovin', ...where }, row({}, baseline, current));
  const playable = piece({ adType: 'playable' }, 440, 1100);
  const small = piece({ adSize: '320x480' }, 440, 1040);

  it('prefers the purer split of one parent (playable, not 320x480 that also holds unmoved banners)', () => {
    expect(preferTwin(frame, parent, small, playable)).toBe(playable);
    expect(preferTwin(frame, parent, playable, small)).toBe(playable);
  });

  it('calls a piece that holds the move but cannot stand out from its parent’s few other pieces a twin', () => {
    // Within AppLovin · 320x480 (installs three times as noisy as Poisson) the playable ads hold all
    // the move; the other 85 installs are too few to tell them apart from.
    const noisy: Frame = { ...frame, noise: { num: { kind: 'count', dispersion: 3, byDimension: new Map() } } };
    const within = measureSegment(noisy, { source: 'AppLovin', adSize: '320x480' }, row({}, 332, 619));
    const pieces = [
      measureSegment(noisy, { source: 'AppLovin', adSize: '320x480', adType: 'playable' }, row({}, 247, 538)),
      measureSegment(noisy, { source: 'AppLovin', adSize: '320x480', adType: 'banner' }, row({}, 85, 81)),
    ];
    const verdict = drillVerdict(noisy, within, pieces, 0);
    expect(verdict.kind).toBe('twin');
    expect(verdict.kind !== 'none' && verdict.piece.where.adType).toBe('playable');
    expect(drill(noisy, within, pieces, 0)).toBeUndefined();
  });

  it('stops drilling once the drivers kept explain most of the change', () => {
    expect(explainedEnough(frame, [parent])).toBe(true);
    expect(explainedEnough(frame, [playable])).toBe(true);
    expect(explainedEnough(frame, [piece({ adType: 'video' }, 800, 1100)])).toBe(false);
    expect(explainedEnough(frame, [])).toBe(false);
  });
});

describe('choose, rank and decideDiffuse', () => {
  const { frame, measured } = scans(leaves);
  const [ios, android] = measured.get('appPlatform') as Segment[];

  it('keeps disjoint drivers only, at most five', () => {
    const us = measured.get('countryCode')?.[0] as Segment;
    // IOS and US share IOS · US; IOS and ANDROID share nothing.
    expect(canKeep([ios as Segment], us)).toBe(false);
    expect(canKeep([ios as Segment], android as Segment)).toBe(true);
    const iosUs = { ...us, where: { appPlatform: 'IOS', countryCode: 'US' } };
    expect(canKeep([ios as Segment], iosUs)).toBe(false);
  });

  it('ranks the drivers that pushed the change’s way, and decides diffuse by standing-out shares', () => {
    expect(rank(frame, [android as Segment, ios as Segment]).map((s) => s.where)).toEqual([
      { appPlatform: 'IOS' },
      { appPlatform: 'ANDROID' },
    ]);
    expect(decideDiffuse(frame, [{ segment: ios as Segment, standsOut: true }])).toBe(false);
    expect(decideDiffuse(frame, [{ segment: ios as Segment, standsOut: false }])).toBe(true);
  });
});

describe('findOffset', () => {
  it('sees two moves that cancel out, and none when one side dominates', () => {
    const rows = [row({ c: 'US' }, 1000, 1501), row({ c: 'BR' }, 1000, 500), row({ c: 'DE' }, 1000, 1000)];
    const frame = counted(frameOf('additive', 1, rows));
    const measured = new Map([['c', rows.map((r) => measureSegment(frame, r.where, r))]]);
    const offset = findOffset(frame, measured, 0);
    expect([offset?.up.where, offset?.down.where]).toEqual([{ c: 'US' }, { c: 'BR' }]);
    const one = [row({ c: 'US' }, 1000, 1501), row({ c: 'BR' }, 1000, 990), row({ c: 'DE' }, 1000, 1000)];
    const f2 = counted(frameOf('additive', 1, one));
    expect(findOffset(f2, new Map([['c', one.map((r) => measureSegment(f2, r.where, r))]]), 0)).toBeUndefined();
  });
});

describe('the noise bar shared equally among the dimensions', () => {
  /** Installs by platform (iOS 1,000 → 1,200) and by 1,500 sites of 20, 200 of them one up. */
  const answers: Record<string, GroupRow[]> = {
    appPlatform: [row({ appPlatform: 'IOS' }, 1000, 1200), row({ appPlatform: 'ANDROID' }, 29_000, 29_000)],
    siteBundle: Array.from({ length: 1500 }, (_, i) => row({ siteBundle: `site${i}` }, 20, i < 200 ? 21 : 20)),
  };
  const source: GroupSource = {
    dimensions: ['appPlatform', 'siteBundle'],
    allows: () => true,
    groups: async (q: GroupQuery) => (Object.keys(q.filter).length === 0 ? (answers[q.dimensions[0] ?? ''] ?? []) : []),
  };

  it('judges a platform of two values as one of two dimensions’ four segments, not one of 1,502 (4.2σ names iOS)', async () => {
    const why = await explain({ metric: 'installs', kind: 'additive', counts: true }, source);
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ appPlatform: 'IOS' });
  });
});
