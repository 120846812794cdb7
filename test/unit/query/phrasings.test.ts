import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  type CompiledQuery,
  compileQuery,
  defaultGlossary,
  parseWorkspaceGlossary,
  QueryError,
} from '../../../src/query/index.js';
import type { FieldSpec, ReportDefinition } from '../../../src/reports/index.js';

/** One question of test/fixtures/phrasings.yaml (its header says what each key means). */
interface Entry {
  q: string;
  metrics?: string;
  by?: string;
  range?: string;
  where?: string;
  top?: number;
  sort?: string;
  compare?: string;
  channel?: string;
  tz?: string;
  error?: string;
  suggests?: string[];
  gap?: string;
}

const corpus = parse(readFileSync('test/fixtures/phrasings.yaml', 'utf8')) as Entry[];
const workspace = parseWorkspaceGlossary(readFileSync('reports/glossary.yaml', 'utf8'), 'reports/glossary.yaml');
const glossary = defaultGlossary().with(workspace.terms);
const now = new Date('2026-11-20T12:00:00Z');

/** The compiled definition in the corpus's notation, written independently of describeUnderstood. */
function shapeOf(d: ReportDefinition): Omit<Entry, 'q'> {
  const field = (f: FieldSpec): string => {
    if (typeof f === 'string') return f;
    const { granularity, ...args } = f.args ?? {};
    const pairs = Object.entries(args).map(([k, v]) => `${k}=${v}`);
    return `${f.name}${granularity ? `:${String(granularity).toLowerCase()}` : ''}${pairs.length ? `(${pairs.join(', ')})` : ''}${f.as ? ` as ${f.as}` : ''}`;
  };
  const ops: Record<string, string> = { equals: '=', notEquals: '!=', isIn: 'in', isNotIn: 'not in' };
  const where = Object.entries(d.query.filter ?? {}).flatMap(([name, value]) =>
    Object.entries(value as Record<string, unknown>).map(
      ([op, v]) => `${name} ${ops[op]} ${Array.isArray(v) ? `(${v.join(', ')})` : v}`,
    ),
  );
  const sort = d.present.sort;
  const shape: Omit<Entry, 'q'> = {
    metrics: d.query.metrics.map(field).join(', '),
    range: typeof d.query.range === 'string' ? d.query.range : `${d.query.range.from}..${d.query.range.to}`,
  };
  if (d.query.dimensions.length > 0) shape.by = d.query.dimensions.map(field).join(', ');
  if (where.length > 0) shape.where = where.join(' and ');
  if (d.present.top !== undefined) shape.top = d.present.top;
  if (sort !== undefined) shape.sort = typeof sort === 'string' ? sort : `${sort.by} ${sort.order}`;
  if (d.present.compare && d.present.compare !== 'none') shape.compare = d.present.compare;
  if (d.query.channel) shape.channel = d.query.channel;
  if (d.query.timezone) shape.tz = d.query.timezone;
  return shape;
}

function expectedOf(e: Entry): Omit<Entry, 'q'> {
  const { q: _q, gap: _gap, ...rest } = e;
  return { range: 'yesterday', ...rest };
}

/** What the entry got: the shape it compiled to, or the error and its first suggestions. */
function outcome(e: Entry): Omit<Entry, 'q'> {
  try {
    const compiled = compileQuery(e.q, { now, glossary }) as CompiledQuery;
    return shapeOf(compiled.definition);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const got: Omit<Entry, 'q'> = { error: error.message };
    if (e.suggests) got.suggests = error.suggestions.slice(0, e.suggests.length);
    return got;
  }
}

function understood(e: Entry): boolean {
  const got = outcome(e);
  if (e.error !== undefined) {
    return (
      got.error?.includes(e.error) === true && JSON.stringify(got.suggests ?? []) === JSON.stringify(e.suggests ?? [])
    );
  }
  return JSON.stringify(sorted(got)) === JSON.stringify(sorted(expectedOf(e)));
}

const sorted = (o: object) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

describe('the phrasings corpus', () => {
  it('has at least 150 questions, each with an answer', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    for (const e of corpus) expect(e.metrics !== undefined || e.error !== undefined).toBe(true);
  });

  it('loads the workspace glossary without problems', () => {
    expect(workspace.problems).toEqual([]);
  });

  const live = corpus.filter((e) => e.gap === undefined);
  const gaps = corpus.filter((e) => e.gap !== undefined);

  it.each(live.map((e) => [e.q, e] as const))('understands %j', (_q, e) => {
    const got = outcome(e);
    if (e.error !== undefined) {
      expect(got.error).toContain(e.error);
      expect(got.suggests ?? []).toEqual(e.suggests ?? []);
    } else {
      expect(sorted(got)).toEqual(sorted(expectedOf(e)));
    }
  });

  if (gaps.length > 0) {
    it.each(gaps.map((e) => [e.q, e] as const))('still has the known gap %j', (_q, e) => {
      // A gap that starts working must lose its mark, so the figure stays honest.
      expect(understood(e)).toBe(false);
    });
  }

  it('understands at least 95 % of the corpus exactly, with under 5 % known gaps', () => {
    const share = corpus.filter(understood).length / corpus.length;
    process.stdout.write(
      `phrasings corpus: ${corpus.length} questions, ${(share * 100).toFixed(1)} % understood exactly, ${gaps.length} known gap(s)\n`,
    );
    expect(share).toBeGreaterThanOrEqual(0.95);
    expect(gaps.length / corpus.length).toBeLessThan(0.05);
  });
});
