/**
 * Look-ahead through a twin: a cause two levels down, under a piece that explained most of its
 * parent's move without standing out from the parent's other pieces. bench/explain planted installs
 * ×0.21 on `US · ANDROID · playable`; `playable · ANDROID` (641 → 470) did not stand out from
 * playable's iOS ads (776 → 760) at the drill's noise bar, and the search stopped at `playable`,
 * diffuse. The figures below are that trial's (installs, a day against the same day a week before).
 */
import { explain } from '../../../src/explain/index.js';
import type { GroupQuery, GroupRow, GroupSource, Where } from '../../../src/explain/types.js';

const row = (where: Where, baseline: number, current: number): GroupRow => ({
  where,
  baseline: { num: baseline },
  current: { num: current },
});
const keyOf = (q: GroupQuery) => `${q.dimensions.join(',')}|${JSON.stringify(q.filter)}`;
const countries = (rows: Record<string, [number, number]>) =>
  Object.entries(rows).map(([countryCode, [b, c]]) => row({ countryCode }, b, c));

/**
 * `usAndroidPlayable`: US's Android playable ads; the other countries' are 437 → 415. US's other
 * ads rose that day (965 → 1,220): US alone barely moved, so countries are drilled last.
 */
function source(usAndroidPlayable: [number, number]): GroupSource {
  const [b, c] = usAndroidPlayable;
  const answers: Record<string, GroupRow[]> = {
    'adType|{}': [
      row({ adType: 'playable' }, 1213 + b, 1175 + c),
      row({ adType: 'interstitial' }, 879, 905),
      row({ adType: 'rewarded_video' }, 1108, 1150),
      row({ adType: 'video' }, 656, 690),
      row({ adType: 'native' }, 655, 679),
    ],
    'adSize|{}': [
      row({ adSize: '320x480' }, 1613 + b, 1585 + c),
      row({ adSize: '1080x1920' }, 1500, 1545),
      row({ adSize: '1200x627' }, 655, 679),
      row({ adSize: '1920x1080' }, 743, 790),
    ],
    'app|{}': [
      row({ app: 'Tile Match' }, 800, 770),
      row({ app: 'Word Garden' }, 1000 + b, 1060 + c),
      row({ app: 'Farm Story' }, 1000, 1040),
      row({ app: 'Coin Wallet' }, 1711, 1729),
    ],
    'appPlatform|{}': [row({ appPlatform: 'ANDROID' }, 1809 + b, 1775 + c), row({ appPlatform: 'IOS' }, 2702, 2824)],
    'countryCode|{}': countries({
      US: [1115 + b, 1265 + c],
      CA: [700, 686],
      DE: [620, 615],
      FR: [500, 495],
      JP: [450, 440],
      BR: [600, 590],
      MX: [526, 518],
    }),
    'appPlatform|{"adType":"playable"}': [
      row({ appPlatform: 'ANDROID' }, 437 + b, 415 + c),
      row({ appPlatform: 'IOS' }, 776, 760),
    ],
    'countryCode|{"adType":"playable","appPlatform":"ANDROID"}': countries({
      US: [b, c],
      CA: [90, 88],
      DE: [80, 78],
      FR: [70, 68],
      JP: [60, 58],
      BR: [70, 66],
      MX: [67, 57],
    }),
  };
  return {
    dimensions: ['adType', 'adSize', 'app', 'appPlatform', 'countryCode'],
    allows: () => true,
    groups: async (q) => answers[keyOf(q)] ?? [],
  };
}

const request = { metric: 'installs', kind: 'additive', counts: true } as const;

describe('look-ahead through a twin', () => {
  it('names playable · ANDROID · US (204 → 55) where playable · ANDROID did not stand out from iOS', async () => {
    const why = await explain(request, source([204, 55]));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ adType: 'playable', appPlatform: 'ANDROID', countryCode: 'US' });
  });

  it('goes no deeper when no piece of the twin stands out (US’s Android playable ads 204 → 194)', async () => {
    const why = await explain(request, source([204, 194]));
    expect(why.drivers.some((d) => d.where.countryCode === 'US' && d.where.appPlatform === 'ANDROID')).toBe(false);
  });
});
