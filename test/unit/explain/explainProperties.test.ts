import fc from 'fast-check';
import {
  explain,
  type GroupQuery,
  type GroupSource,
  type LeafTable,
  leafCsvSource,
} from '../../../src/explain/index.js';
import { frameOf, measureSegment } from '../../../src/explain/segmentMath.js';
import { overlaps } from '../../../src/explain/where.js';

const NAMES = ['countryCode', 'source', 'platform'];

/** Small leaf tables: 1–3 dimensions of 1–4 values, every combination a leaf; zeros allowed (spend without installs). */
const tables = fc
  .record({
    kind: fc.constantFrom('additive' as const, 'ratio' as const),
    sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
  })
  .chain(({ kind, sizes }) => {
    const n = sizes.reduce((a, b) => a * b, 1);
    const measure = fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 2_000 }),
      fc.double({ min: 0.001, max: 5e5, noNaN: true }),
    );
    return fc
      .array(fc.tuple(measure, measure, measure, measure), { minLength: n, maxLength: n })
      .map((measures): LeafTable => {
        const dimensions = NAMES.slice(0, sizes.length);
        const leaves = measures.map(([n1, d1, n0, d0], i) => {
          let rest = i;
          const values = sizes.map((size, k) => {
            const v = rest % size;
            rest = Math.floor(rest / size);
            return `${dimensions[k]}${v}`;
          });
          return kind === 'ratio'
            ? { values, current: { num: n1, den: d1 }, baseline: { num: n0, den: d0 } }
            : { values, current: { num: n1 }, baseline: { num: n0 } };
        });
        return { kind, dimensions, ignored: [], leaves };
      });
  });

/** A ratio table one of whose segments contributes less than the data's precision (−1.25e-9). */
const SUB_PRECISION_SEGMENT: LeafTable = {
  kind: 'ratio',
  dimensions: ['countryCode', 'source'],
  ignored: [],
  leaves: [
    {
      values: ['countryCode0', 'source0'],
      current: { num: 435754.52393972693, den: 348689.81819978263 },
      baseline: { num: 0, den: 0 },
    },
    { values: ['countryCode1', 'source0'], current: { num: 0, den: 0.001 }, baseline: { num: 0, den: 0 } },
    { values: ['countryCode2', 'source0'], current: { num: 0.001, den: 0 }, baseline: { num: 0, den: 423 } },
    { values: ['countryCode3', 'source0'], current: { num: 0, den: 0 }, baseline: { num: 185, den: 0 } },
  ],
};

const close = (a: number, b: number, scale: number, zeroed = 0) =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, scale) + zeroed;

describe('explain: properties', () => {
  it('splits an additive change exactly over the segments of any one dimension', async () => {
    await fc.assert(
      fc.asyncProperty(tables, async (table) => {
        fc.pre(table.kind === 'additive');
        const source = leafCsvSource(table);
        for (const dimension of table.dimensions) {
          const rows = await source.groups({ dimensions: [dimension], filter: {} });
          const frame = frameOf('additive', 1, rows);
          const sum = rows.reduce((s, row) => s + measureSegment(frame, row.where, row).contribution, 0);
          // A contribution within the data's precision is 0 (atPrecision): each may leave out up to epsilon.
          expect(close(sum, frame.change, frame.volume, rows.length * frame.epsilon)).toBe(true);
        }
      }),
    );
  });

  it('splits a ratio change exactly into mix + rate over the segments of any one dimension', async () => {
    await fc.assert(
      fc.asyncProperty(tables, fc.constantFrom(1, 1000), async (table, scale) => {
        fc.pre(table.kind === 'ratio');
        const source = leafCsvSource(table);
        for (const dimension of table.dimensions) {
          const rows = await source.groups({ dimensions: [dimension], filter: {} });
          const frame = frameOf('ratio', scale, rows);
          fc.pre(frame.d0 > 0 && frame.d1 > 0);
          const segments = rows.map((row) => measureSegment(frame, row.where, row));
          // Floating-point precision is relative to the largest terms summed, not only to the result.
          const size = Math.max(
            Math.abs(frame.baseline),
            Math.abs(frame.current),
            ...segments.map((x) => Math.abs(x.mix ?? 0) + Math.abs(x.rate ?? 0)),
          );
          const mix = segments.reduce((s, x) => s + (x.mix ?? Number.NaN), 0);
          const rate = segments.reduce((s, x) => s + (x.rate ?? Number.NaN), 0);
          // A contribution within the data's precision is 0 (atPrecision): each may leave out up to epsilon
          // (a segment with 0.001 of the current installs and none before: −1.25e-9 of a 0.81 change).
          expect(close(mix + rate, frame.change, size, segments.length * frame.epsilon)).toBe(true);
          for (const s of segments) expect(close((s.mix ?? 0) + (s.rate ?? 0), s.contribution, size)).toBe(true);
        }
      }),
      // Found by CI's random seed: 0.001 of the current installs in a segment with none before.
      { examples: [[SUB_PRECISION_SEGMENT, 1]] },
    );
  });

  it('lists disjoint drivers whose mix + rate is their contribution', async () => {
    await fc.assert(
      fc.asyncProperty(tables, async (table) => {
        const why = await explain({ metric: 'm', kind: table.kind }, leafCsvSource(table));
        why.drivers.forEach((a, i) => {
          for (const b of why.drivers.slice(i + 1)) expect(overlaps(a.where, b.where)).toBe(false);
          if (table.kind === 'ratio') {
            const size = Math.max(
              Math.abs(why.baseline),
              Math.abs(why.current),
              Math.abs(a.mix ?? 0) + Math.abs(a.rate ?? 0),
            );
            expect(close((a.mix ?? 0) + (a.rate ?? 0), a.contribution, size)).toBe(true);
          }
        });
        expect(JSON.stringify(why)).not.toMatch(/null|NaN|Infinity/);
      }),
    );
  });

  it('gives byte-identical output for the same groups in any order', async () => {
    await fc.assert(
      fc.asyncProperty(tables, fc.integer({ min: 1, max: 2 ** 31 }), async (table, seed) => {
        const inner = leafCsvSource(table);
        const shuffled: GroupSource = {
          dimensions: inner.dimensions,
          allows: (q) => inner.allows(q),
          groups: async (q) => {
            const rows = [...(await inner.groups(q))];
            let s = seed;
            for (let i = rows.length - 1; i > 0; i--) {
              s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
              const j = s % (i + 1);
              [rows[i], rows[j]] = [rows[j] as (typeof rows)[number], rows[i] as (typeof rows)[number]];
            }
            return rows;
          },
        };
        const a = await explain({ metric: 'm', kind: table.kind }, inner);
        const b = await explain({ metric: 'm', kind: table.kind }, shuffled);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
    );
  });

  it('never exceeds the budget and never asks a query the source refuses', async () => {
    const pairs = fc.subarray(
      [
        ['countryCode', 'source'],
        ['countryCode', 'platform'],
        ['source', 'platform'],
      ],
      { minLength: 0 },
    );
    await fc.assert(
      fc.asyncProperty(
        tables,
        fc.integer({ min: 1, max: 30 }),
        pairs,
        fc.boolean(),
        async (table, budget, forbidden, refuseAlone) => {
          const inner = leafCsvSource(table);
          const refused = (q: GroupQuery) => {
            const used = [...q.dimensions, ...Object.keys(q.filter)];
            if (refuseAlone && q.dimensions[0] === 'source' && used.length === 1) return true;
            return forbidden.some(([x, y]) => used.includes(x as string) && used.includes(y as string));
          };
          let asked = 0;
          const source: GroupSource = {
            dimensions: inner.dimensions,
            allows: (q) => !refused(q),
            groups: (q) => {
              asked++;
              if (refused(q)) throw new Error(`asked a refused query ${JSON.stringify(q)}`);
              return inner.groups(q);
            },
          };
          const why = await explain({ metric: 'm', kind: table.kind, budget }, source);
          expect(asked).toBeLessThanOrEqual(budget);
          expect(why.queries).toBe(asked);
          expect(why.partial).toBe(
            why.explored.dimensions < why.explored.of && why.notes.some((n) => n.startsWith('partial: ')),
          );
        },
      ),
    );
  });
});
