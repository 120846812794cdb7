/**
 * Twins (src/explain/twins.ts): a found segment whose drill saw a twin of one of its values is
 * swapped for the segment with the twin in its place when that one splits their common parent
 * better. The figures are bench/explain's plant on AppLovin's playable ads (installs ×2.33), which
 * the drill reached as AppLovin · 320x480.
 */
import { Asker } from '../../../src/explain/asker.js';
import { type Scanned, scan } from '../../../src/explain/search.js';
import { type Frame, frameOf, measureSegment } from '../../../src/explain/segmentMath.js';
import { preferTwins } from '../../../src/explain/twins.js';
import type { GroupQuery, GroupRow, GroupSource, Where } from '../../../src/explain/types.js';

const row = (where: Where, baseline: number, current: number): GroupRow => ({
  where,
  baseline: { num: baseline },
  current: { num: current },
});

// What the source answers, by query: AppLovin by ad type, and 320x480 by ad type.
const answers: Record<string, GroupRow[]> = {
  'adType|{"source":"AppLovin"}': [
    row({ adType: 'playable' }, 300, 650),
    row({ adType: 'video' }, 400, 410),
    row({ adType: 'banner' }, 200, 195),
  ],
  'adType|{"adSize":"320x480"}': [row({ adType: 'playable' }, 1417, 1746), row({ adType: 'banner' }, 546, 550)],
};
const keyOf = (q: GroupQuery) => `${q.dimensions.join(',')}|${JSON.stringify(q.filter)}`;

function setup() {
  const asked: string[] = [];
  const source: GroupSource = {
    dimensions: ['source', 'adType', 'adSize'],
    allows: () => true,
    groups: async (q) => {
      asked.push(keyOf(q));
      return answers[keyOf(q)] ?? [];
    },
  };
  const sources = [row({ source: 'AppLovin' }, 900, 1255), row({ source: 'Unity' }, 3100, 3160)];
  const plain = frameOf('additive', 1, sources);
  const frame: Frame = { ...plain, noise: { num: { kind: 'count', dispersion: 2.78, byDimension: new Map() } } };
  const measured = new Map([['source', sources.map((r) => measureSegment(frame, r.where, r))]]);
  const scanned: Scanned = scan(frame, measured, 1, 0);
  const found = measureSegment(frame, { source: 'AppLovin', adSize: '320x480' }, row({}, 332, 619));
  return { asker: new Asker(source, 24), asked, frame, scanned, found };
}

describe('preferTwins', () => {
  it('swaps AppLovin · 320x480 for AppLovin · playable, tested at their common parent AppLovin', async () => {
    const { asker, asked, frame, scanned, found } = setup();
    const twins = [{ dimension: 'adType', value: 'playable' }];
    const kept = await preferTwins(
      frame,
      found,
      twins,
      { scanned, dimensions: ['source', 'adType', 'adSize'] },
      asker,
      0,
    );
    expect(kept.where).toEqual({ source: 'AppLovin', adType: 'playable' });
    expect(asked).toContain('adType|{"source":"AppLovin"}');
  });

  it('keeps the found segment when no twin was seen, and asks nothing', async () => {
    const { asker, asked, frame, scanned, found } = setup();
    const kept = await preferTwins(frame, found, [], { scanned, dimensions: ['source', 'adType', 'adSize'] }, asker, 0);
    expect(kept).toBe(found);
    expect(asked).toEqual([]);
  });

  it('asks a group-by once: a repeated one is answered without a query', async () => {
    const { asker, asked } = setup();
    const query = { dimensions: ['adType'], filter: { source: 'AppLovin' } };
    await asker.ask(query);
    await asker.ask(query);
    expect(asked).toHaveLength(1);
    expect(asker.used).toBe(1);
  });
});
