import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CompiledQuery,
  compileQuery,
  defaultGlossary,
  loadWorkspaceGlossary,
  parseWorkspaceGlossary,
  workspaceGlossaryOf,
} from '../../../src/query/index.js';
import { loadReports } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const FILE = 'reports/glossary.yaml';

describe('the workspace glossary', () => {
  it('adds the workspace words, with their arguments, output names and other words', () => {
    const { terms, problems } = parseWorkspaceGlossary(
      [
        'words:',
        '  purchases:',
        '    metric: events(eventId=1014) as purchases',
        '    description: purchases in Word Garden',
        '    also: [buys]',
        '  market:',
        '    dimension: countryName',
      ].join('\n'),
      FILE,
    );
    expect(problems).toEqual([]);
    const glossary = defaultGlossary().with(terms);
    const q = compileQuery('buys and spend by market', { now, glossary }) as CompiledQuery;
    expect(q.definition.query.metrics).toEqual([
      { name: 'events', args: { eventId: 1014 }, as: 'purchases' },
      { name: 'spend' },
    ]);
    expect(q.definition.query.dimensions).toEqual([{ name: 'countryName' }]);
    expect(terms[0]?.description).toBe('purchases in Word Garden');
    expect(terms[1]?.description).toBe('country name');
  });

  it('wins over a built-in word', () => {
    const { terms } = parseWorkspaceGlossary('words:\n  revenue:\n    metric: eventValue(eventId=1014)\n', FILE);
    const q = compileQuery('revenue', { now, glossary: defaultGlossary().with(terms) }) as CompiledQuery;
    expect(q.definition.query.metrics).toEqual([{ name: 'eventValue', args: { eventId: 1014 } }]);
  });

  it.each([
    ['words:\n  buys:\n    metric: evnts(eventId=1)\n', 3, 13, 'Unknown metric "evnts". Did you mean "events"'],
    ['words:\n  buys:\n    metric: events(eventid=x)\n', 3, 13, 'must be a whole number'],
    ['words:\n  buys:\n    metric: spend\n    dimension: app\n', 3, 5, 'exactly one of metric: or dimension:'],
    ['words:\n  buys:\n    metrik: spend\n', 3, 5, 'unknown key "metrik". Did you mean "metric"?'],
    ['word:\n  buys:\n    metric: spend\n', 1, 1, 'unknown key "word"'],
    ['words: [a, b]\n', 1, 8, 'words: must map each word'],
    ['words:\n  buys: spend\n', 2, 9, 'each word maps to'],
    ['words:\n  geo2:\n    dimension: contry\n', 3, 16, 'Unknown dimension "contry"'],
    ['words: {\n', 2, 1, 'YAML:'],
    ['words:\n  Spend:\n    metric: eventValue\n', 2, 3, '"spend" is a catalog name already'],
  ])('reports %j at its line and column', (text, line, col, message) => {
    const { problems } = parseWorkspaceGlossary(text, FILE);
    expect(problems[0]).toMatchObject({ file: FILE, line, col });
    expect(problems[0]?.message).toContain(message);
  });

  it('is not a report: loadReports hands its text on, and the query language reads it once per load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glossary-'));
    try {
      await writeFile(join(dir, 'a.yaml'), 'title: A\nquery:\n  metrics: [spend]\n');
      await writeFile(join(dir, 'glossary.yaml'), 'words:\n  buys:\n    metric: events(eventId=1014)\n');
      const loaded = await loadReports(dir, { now });
      expect(loaded.reports.map((r) => r.id)).toEqual(['a']);
      expect(loaded.problems).toEqual([]);
      expect(loaded.glossary?.file).toBe(join(dir, 'glossary.yaml'));
      const first = workspaceGlossaryOf(loaded);
      expect(workspaceGlossaryOf(loaded)).toBe(first);
      expect(first.glossary.lookup('buys')?.means).toMatchObject({ metric: 'events' });
      expect((await loadWorkspaceGlossary(dir)).glossary.lookup('buys')).toBeDefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is optional', async () => {
    expect(workspaceGlossaryOf({}).glossary).toBe(defaultGlossary());
    expect((await loadWorkspaceGlossary(join(tmpdir(), 'no-such-folder-pivotbot'))).problems).toEqual([]);
  });
});
