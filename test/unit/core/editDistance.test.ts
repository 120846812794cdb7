import fc from 'fast-check';
import { editDistance } from '../../../src/core/index.js';

/** The textbook optimal-string-alignment distance, to check the fast one against. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}

describe('editDistance', () => {
  it('equals the textbook distance, and says "past the limit" exactly when it is', () => {
    const word = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', 'c', 'd', 'e') });
    fc.assert(
      fc.property(word, word, fc.nat({ max: 6 }), (a, b, limit) => {
        const exact = reference(a, b);
        expect(editDistance(a, b)).toBe(exact);
        const bounded = editDistance(a, b, limit);
        if (exact <= limit) expect(bounded).toBe(exact);
        else expect(bounded).toBeGreaterThan(limit);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
  });

  it('handles long words after short ones (its rows grow)', () => {
    expect(editDistance('a', 'b')).toBe(1);
    expect(editDistance('x'.repeat(300), `${'x'.repeat(299)}y`)).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
  });
});
