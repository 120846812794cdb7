/**
 * A name that stands for several things: the sandbox's (and real accounts') app names are one app
 * per platform, Stream Box on iOS and Stream Box on Android. A group-by of `app` joins them; the
 * source says so (`splits`), and the engine drills such a segment by platform first, judging each
 * piece against the whole as a thing of its own (bench/explain's uniform draw planted on the iOS app
 * and got `app=Stream Box`). A move of both apps stays the name's: the strong parent.
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

  it('named only the app before the source said the name stands for two apps', async () => {
    const why = await explain(request, source([114, 246], [58, 72], false));
    expect(why.drivers[0]?.where).toEqual({ app: 'Stream Box' });
  });

  it('keeps the app when both platforms moved alike (×1.85 each)', async () => {
    const why = await explain(request, source([114, 211], [58, 107], true));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ app: 'Stream Box' });
  });
});
