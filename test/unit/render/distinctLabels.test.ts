import fc from 'fast-check';
import { distinctLabels } from '../../../src/render/distinctLabels.js';

const length = (s: string) => Array.from(s).length;

describe('distinctLabels: cut names that stay distinct', () => {
  it('tells apart campaigns that one cut each would merge (the Connected TV digest)', () => {
    const names = ['Merge Kingdom · CTV · Roku · US · CPI #1', 'Merge Kingdom · CTV · Fire TV · US · CPI #1'];
    const labels = distinctLabels(names, 22);
    expect(labels).toEqual(['Merge…Roku…CPI #1', 'Merge…Fire TV…CPI #1']);
  });

  it('keeps names that fit, and cuts a lone long name at both ends', () => {
    expect(distinctLabels(['US', 'Brazil', 'Summer Sale 2024 · Android · Tier 1 · US'], 22)).toEqual([
      'US',
      'Brazil',
      'Summer Sale…ier 1 · US',
    ]);
  });

  it('gives the same name the same label', () => {
    const long = 'Merge Kingdom · Android · RTGT · FR · ROAS #3';
    const labels = distinctLabels([long, 'x', long], 12);
    expect(labels[0]).toBe(labels[2]);
  });

  it('numbers a name that reads exactly like another one cut', () => {
    const long = 'abcdefghijklmnopqrstuvwxyz';
    const cut = distinctLabels([long], 9)[0] as string;
    const labels = distinctLabels([long, cut], 9);
    expect(new Set(labels).size).toBe(2);
    expect(labels.every((l) => length(l) <= 9)).toBe(true);
  });

  // Names as campaign lists have them: long shared starts and ends around a small difference.
  const part = fc.string({
    unit: fc.constantFrom('a', 'B', '7', ' ', '·', '#', '-', '…', 'é', '🙂', '\u0301'),
    maxLength: 30,
  });
  const names = fc
    .tuple(part, part, fc.array(part, { minLength: 1, maxLength: 12 }))
    .map(([prefix, suffix, middles]) => middles.map((m) => `${prefix}${m}${suffix}`));

  it('distinct in, distinct out, each within the limit (shared prefixes and suffixes)', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 4, max: 40 }), (list, max) => {
        const labels = distinctLabels(list, max);
        expect(labels).toHaveLength(list.length);
        list.forEach((name, i) => {
          const label = labels[i] as string;
          expect(length(label)).toBeLessThanOrEqual(max);
          if (length(name) <= max) expect(label).toBe(name);
          list.forEach((other, j) => {
            expect(label === labels[j]).toBe(name === other);
          });
        });
      }),
      { numRuns: 200 },
    );
  });
});
