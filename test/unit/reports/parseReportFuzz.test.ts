import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const sample = readFileSync('reports/weekly-campaign-review.yaml', 'utf8');

describe('parseReportText under broken input', () => {
  it('reports problems with positions inside the file and never throws', () => {
    const edited = fc.tuple(fc.nat(), fc.nat({ max: 20 }), fc.string({ maxLength: 8 })).map(([at, length, text]) => {
      const i = at % (sample.length + 1);
      return sample.slice(0, i) + text + sample.slice(i + length);
    });
    fc.assert(
      fc.property(fc.oneof(edited, fc.string({ maxLength: 300 })), (text) => {
        const { problems, report } = parseReportText(text, { file: 'r.yaml', id: 'r', now });
        if (problems.length === 0 && report === undefined) throw new Error('neither a report nor a problem');
        const lines = text.split(/\r\n|\r|\n/).length + 1;
        for (const p of problems) {
          if (p.line < 1 || p.line > lines || p.col < 1) throw new Error(`bad position ${p.line}:${p.col}`);
        }
      }),
      { numRuns: 1500, seed: 42 },
    );
  }, 60_000);

  it.each([
    ['- a\n- b\n', /^must be a mapping \(key: value\), got a list/],
    ['just text', /^must be a mapping \(key: value\), got a string/],
    ['', /empty/],
  ])('explains a file that is not a mapping: %j', (text, message) => {
    expect(parseReportText(text, { file: 'r.yaml', id: 'r', now }).problems[0]?.message).toMatch(message);
  });
});
