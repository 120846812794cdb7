/**
 * A name that stands for several things: an app name is often one app per platform, Stream Box on
 * iOS and Stream Box on Android (on the sandbox's `medium` data, two advertisers' apps: two per
 * platform). A group-by of `app` joins them; the source says so (`splits`), and the engine drills
 * such a segment by platform first, then by bundle where the name has several apps on the platform,
 * judging each piece against the whole as a thing of its own (bench/explain's uniform draw planted
 * on one iOS app and got `app=Stream Box`). A move of all of them stays the name's: the strong parent.
 */
import { explain } from '../../../src/explain/index.js';
import type { GroupQuery, GroupRow, GroupSource, Where } from '../../../src/explain/types.js';

const row = (where: Where, baseline: number, current: number): GroupRow => ({
  where,
  baseline: { num: baseline },
  current: { num: current },
});
const keyOf = (q: GroupQuery) => `${q.dimensions.join(',')}|${JSON.stringify(q.filter)}`;

/** Installs by app, platform and country; Stream Box 172 → 318, split by platform as given. */
function source(ios: [number, number], android: [number, number], withSplits: boolean): GroupSource {
  const others = [
    row({ app: 'Tile Match' }, 500, 505),
    row({ app: 'Word Garden' }, 600, 598),
    row({ app: 'Farm Story' }, 400, 410),
    row({ app: 'Coin Wallet' }, 300, 296),
    row({ app: 'Ride Now' }, 350, 352),
  ];
  const answers: Record<string, GroupRow[]> = {
    'app|{}': [row({ app: 'Stream Box' }, 172, 318), ...others],
    'appPlatform|{}': [
      row({ appPlatform: 'IOS' }, 1100 + ios[0], 1110 + ios[1]),
      row({ appPlatform: 'ANDROID' }, 1050 + android[0], 1051 + android[1]),
    ],
    'countryCode|{}': [
      row({ countryCode: 'US' }, 1000, 1070),
      row({ countryCode: 'CA' }, 700, 775),
      row({ countryCode: 'DE' }, 622, 634),
    ],
    'appPlatform|{"app":"Stream Box"}': [
      row({ appPlatform: 'IOS' }, ...ios),
      row({ appPlatform: 'ANDROID' }, ...android),
    ],
    'countryCode|{"app":"Stream Box"}': [
      row({ countryCode: 'US' }, 75, 140),
      row({ countryCode: 'CA' }, 50, 100),
      row({ countryCode: 'DE' }, 47, 78),
    ],
  };
  return {
    dimensions: ['app', 'appPlatform', 'countryCode'],
    allows: () => true,
    groups: async (q) => answers[keyOf(q)] ?? [],
    ...(withSplits ? { splits: (where: Where) => (where.app === 'Stream Box' ? ['appPlatform'] : []) } : {}),
  };
}

const request = { metric: 'installs', kind: 'additive', counts: true } as const;

describe('an app name that stands for one app per platform', () => {
  it('names the iOS app when only it moved (installs 114 → 246 beside Android’s 58 → 72)', async () => {
    const why = await explain(request, source([114, 246], [58, 72], true));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ app: 'Stream Box', appPlatform: 'IOS' });
  });

  it('names the iOS app also where the source does not say the name splits: Android stayed as the outside did', async () => {
    // Android's 58 → 72 is too small to show iOS beyond its noise among the app's pieces; against
    // the whole, iOS stands out and the app did not move as a whole (drillVerdict's `outer`).
    const why = await explain(request, source([114, 246], [58, 72], false));
    expect(why.drivers[0]?.where).toEqual({ app: 'Stream Box', appPlatform: 'IOS' });
  });

  it('keeps the app when both platforms moved alike (×1.85 each)', async () => {
    const why = await explain(request, source([114, 211], [58, 107], true));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ app: 'Stream Box' });
  });
});

/** A leaf of a fixture table: its values, and the metric in the baseline and current periods. */
interface Leaf {
  readonly where: Where;
  readonly b: number;
  readonly c: number;
}

/** Merge Kingdom's splits as the reporting source says them: platform, then bundle on iOS (two apps there). */
const mergeKingdomSplits = (where: Where): string[] =>
  where.app !== 'Merge Kingdom'
    ? []
    : where.appPlatform === undefined
      ? ['appPlatform']
      : where.appPlatform === 'IOS' && where.appBundle === undefined
        ? ['appBundle']
        : [];

/** A source that sums leaves per group-by, with Merge Kingdom's splits; `asked` records its queries. */
function leafSource(leaves: readonly Leaf[], dimensions: readonly string[], asked: string[] = []): GroupSource {
  return {
    dimensions,
    allows: () => true,
    async groups(q) {
      asked.push(keyOf(q));
      const groups = new Map<string, GroupRow>();
      for (const l of leaves) {
        if (!Object.entries(q.filter).every(([d, v]) => l.where[d] === v)) continue;
        const where = Object.fromEntries(q.dimensions.map((d) => [d, String(l.where[d])]));
        const key = JSON.stringify(where);
        const g = groups.get(key) ?? row(where, 0, 0);
        groups.set(key, row(where, g.baseline.num + l.b, g.current.num + l.c));
      }
      return [...groups.values()];
    },
    splits: mergeKingdomSplits,
  };
}

/**
 * Two apps of one name on one platform too (two advertisers' Merge Kingdom on iOS, as on the
 * sandbox's `medium` data): the source says to tell them apart by bundle once the platform is
 * known, and the bundle adds no depth, so a country of one of them can still be named.
 */
describe('an app name that stands for two apps on one platform', () => {
  const leaf = (app: string, appPlatform: string, appBundle: string, countryCode: string, b: number, c: number) => ({
    where: { app, appPlatform, appBundle, countryCode },
    b,
    c,
  });
  const others = [
    leaf('Tile Match', 'IOS', 't1', 'US', 300, 303),
    leaf('Tile Match', 'IOS', 't1', 'CA', 250, 252),
    leaf('Word Garden', 'ANDROID', 'w1', 'US', 280, 279),
    leaf('Word Garden', 'ANDROID', 'w1', 'CA', 260, 262),
    leaf('Farm Story', 'IOS', 'f1', 'US', 200, 202),
    leaf('Farm Story', 'IOS', 'f1', 'CA', 180, 181),
  ];
  const mergeKingdom = (bundle1: Record<'US' | 'CA', [number, number]>) => [
    leaf('Merge Kingdom', 'IOS', 'id1', 'US', ...bundle1.US),
    leaf('Merge Kingdom', 'IOS', 'id1', 'CA', ...bundle1.CA),
    leaf('Merge Kingdom', 'IOS', 'id2', 'US', 50, 51),
    leaf('Merge Kingdom', 'IOS', 'id2', 'CA', 40, 40),
    leaf('Merge Kingdom', 'ANDROID', 'com.x', 'US', 40, 41),
    leaf('Merge Kingdom', 'ANDROID', 'com.x', 'CA', 40, 40),
  ];
  const candidates = ['app', 'appPlatform', 'countryCode'];

  it('names the one iOS app that moved, by its bundle (id1 ×2.25 beside id2 90 → 91)', async () => {
    const asked: string[] = [];
    const leaves = [...mergeKingdom({ US: [60, 135], CA: [40, 90] }), ...others];
    const why = await explain(request, leafSource(leaves, candidates, asked));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ app: 'Merge Kingdom', appPlatform: 'IOS', appBundle: 'id1' });
    // The bundle is not a candidate dimension: it is asked only as the name's split.
    expect(asked).toContain('appBundle|{"appPlatform":"IOS","app":"Merge Kingdom"}');
  });

  it('names one country of that app: the bundle adds no depth (id1 in the US 60 → 210, in CA 40 → 41)', async () => {
    const leaves = [...mergeKingdom({ US: [60, 210], CA: [40, 41] }), ...others];
    const why = await explain(request, leafSource(leaves, candidates));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({
      app: 'Merge Kingdom',
      appPlatform: 'IOS',
      appBundle: 'id1',
      countryCode: 'US',
    });
  });

  it('names the bundle that is nearly all of the name on its platform (id1 300 → 680 beside id2 20 → 21)', async () => {
    const leaves = [...mergeKingdom({ US: [160, 360], CA: [140, 320] }), ...others].map((l) =>
      l.where.appBundle === 'id2' ? { ...l, b: 10, c: l.where.countryCode === 'US' ? 11 : 10 } : l,
    );
    const why = await explain(request, leafSource(leaves, candidates));
    expect(why.drivers[0]?.where).toEqual({ app: 'Merge Kingdom', appPlatform: 'IOS', appBundle: 'id1' });
  });

  it('keeps the platform when both of its apps moved alike (×2 each)', async () => {
    const leaves = [...mergeKingdom({ US: [60, 120], CA: [40, 80] }), ...others].map((l) =>
      l.where.appBundle === 'id2' ? { ...l, c: l.b * 2 } : l,
    );
    const why = await explain(request, leafSource(leaves, candidates));
    expect(why.drivers[0]?.where).toEqual({ app: 'Merge Kingdom', appPlatform: 'IOS' });
  });
});

/**
 * A split is taken first: where the platform (or the bundle) of an app name replaces the segment,
 * it is the next step even when another dimension's piece splits the segment better (one campaign
 * that holds most of the app's rows): the app is named, and that campaign is not its stand-in.
 */
describe('a split taken before a purer piece of another dimension', () => {
  const leaf = (values: [string, string, string, string, string], b: number, c: number): Leaf => {
    const [app, appPlatform, appBundle, countryCode, campaign] = values;
    return { where: { app, appPlatform, appBundle, countryCode, campaign }, b, c };
  };
  // Merge Kingdom's first iOS app (id1) lost 70 % of its installs in the US; the rest held.
  const leaves = [
    leaf(['Merge Kingdom', 'IOS', 'id1', 'US', 'MK iOS US #1'], 300, 90),
    leaf(['Merge Kingdom', 'IOS', 'id1', 'US', 'MK iOS JP #2'], 20, 6),
    leaf(['Merge Kingdom', 'IOS', 'id1', 'JP', 'MK iOS JP #2'], 100, 101),
    leaf(['Merge Kingdom', 'IOS', 'id2', 'US', 'MK2 iOS US #3'], 60, 61),
    leaf(['Merge Kingdom', 'ANDROID', 'com.x', 'US', 'MK Android US #1'], 80, 81),
    leaf(['Merge Kingdom', 'ANDROID', 'com.x', 'JP', 'MK Android US #1'], 50, 50),
    leaf(['Tile Match', 'IOS', 't1', 'US', 'TM iOS US #1'], 300, 303),
    leaf(['Tile Match', 'IOS', 't1', 'JP', 'TM iOS US #1'], 250, 252),
    leaf(['Word Garden', 'ANDROID', 'w1', 'US', 'WG Android US #1'], 280, 279),
    leaf(['Word Garden', 'ANDROID', 'w1', 'JP', 'WG Android US #1'], 260, 262),
  ];

  it('names the app by platform and bundle, then its country, not its US campaign', async () => {
    const why = await explain(request, leafSource(leaves, ['countryCode', 'campaign', 'app']));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({
      countryCode: 'US',
      app: 'Merge Kingdom',
      appPlatform: 'IOS',
      appBundle: 'id1',
    });
  });
});
