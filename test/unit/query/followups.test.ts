import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  applyFollowUp,
  type CompiledQuery,
  compileQuery,
  defaultGlossary,
  type FollowUpAnswer,
  parseQuery,
  parseWorkspaceGlossary,
  type QueryOptions,
} from '../../../src/query/index.js';

/** One entry of test/fixtures/followups.yaml (its header says what each key means). */
interface Entry {
  parent: string;
  reply?: string;
  chain?: string[];
  query?: string;
  csv?: boolean;
  chart?: boolean;
  changed?: string;
  why?: string;
  unknown?: string;
  suggests?: string[];
  gap?: string;
}

const corpus = parse(readFileSync('test/fixtures/followups.yaml', 'utf8')) as Entry[];
const workspace = parseWorkspaceGlossary(readFileSync('reports/glossary.yaml', 'utf8'), 'reports/glossary.yaml');
const options: QueryOptions = {
  now: new Date('2026-11-20T12:00:00Z'),
  defaultTimeZone: 'UTC',
  glossary: defaultGlossary().with(workspace.terms),
};

const repliesOf = (e: Entry): string[] => e.chain ?? [e.reply ?? ''];
const nameOf = (e: Entry): string => `${e.parent} ⟶ ${repliesOf(e).join(' ⟶ ')}`;

/** Each reply refines the answer to the one before; the outcome is the last answer (or the first that is not a query). */
function run(e: Entry): FollowUpAnswer {
  let parent = e.parent;
  let answer: FollowUpAnswer = { kind: 'unknown', message: 'no reply', suggestions: [] };
  for (const reply of repliesOf(e)) {
    answer = applyFollowUp(parent, reply, options);
    if (answer.kind !== 'query') return answer;
    parent = answer.text;
  }
  return answer;
}

/** What a query text asks, as the compiler defines it: the report definition minus its title and description. */
function meaning(text: string): unknown {
  const compiled = compileQuery(text, options);
  if (compiled.kind === 'run') return { run: compiled.report.value, range: compiled.range };
  const { title: _t, description: _d, ...definition } = (compiled as CompiledQuery).definition;
  return definition;
}

/** Why the entry is not understood exactly, or undefined when it is. */
function mismatch(e: Entry): string | undefined {
  const got = run(e);
  const shown = JSON.stringify(got);
  if (e.unknown !== undefined) {
    if (got.kind !== 'unknown') return `expected unknown, got ${shown}`;
    if (!got.message.includes(e.unknown)) return `message lacks ${JSON.stringify(e.unknown)}: ${shown}`;
    const first = got.suggestions.slice(0, e.suggests?.length ?? 0);
    if (JSON.stringify(first) !== JSON.stringify(e.suggests ?? [])) return `suggestions ${JSON.stringify(first)}`;
    return undefined;
  }
  if (e.why !== undefined) {
    if (got.kind !== 'why') return `expected why, got ${shown}`;
    return JSON.stringify(meaning(got.text)) === JSON.stringify(meaning(e.why)) ? undefined : `why ${got.text}`;
  }
  if (got.kind !== 'query') return `expected a query, got ${shown}`;
  if (JSON.stringify(meaning(got.text)) !== JSON.stringify(meaning(e.query ?? '')))
    return `refined to ${got.text}, expected ${e.query}`;
  if ((got.csv ?? false) !== (e.csv ?? false) || (got.chart ?? false) !== (e.chart ?? false))
    return `flags csv=${got.csv} chart=${got.chart}`;
  if (e.changed !== undefined && !got.changed.includes(e.changed)) return `changed: ${got.changed}`;
  return undefined;
}

describe('the follow-ups corpus', () => {
  it('has at least 60 entries, each with one outcome, and expected queries that compile', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    for (const e of corpus) {
      const outcomes = [e.query, e.why, e.unknown].filter((o) => o !== undefined);
      expect(outcomes).toHaveLength(1);
      for (const text of [e.query, e.why]) if (text !== undefined) expect(() => meaning(text)).not.toThrow();
    }
  });

  const live = corpus.filter((e) => e.gap === undefined);
  const gaps = corpus.filter((e) => e.gap !== undefined);

  it.each(live.map((e) => [nameOf(e), e] as const))('reads %s', (_name, e) => {
    expect(mismatch(e)).toBeUndefined();
  });

  if (gaps.length > 0) {
    it.each(gaps.map((e) => [nameOf(e), e] as const))('still has the known gap %s', (_name, e) => {
      // A gap that starts working must lose its mark, so the figure stays honest.
      expect(mismatch(e)).toBeDefined();
    });
  }

  it('understands at least 95 % of the corpus exactly', () => {
    const failing = corpus.map((e) => [e, mismatch(e)] as const).filter(([, why]) => why !== undefined);
    const share = (corpus.length - failing.length) / corpus.length;
    const lines = failing.map(([e, why]) => `  ✗ ${nameOf(e)}: ${why}`);
    process.stdout.write(
      `follow-ups corpus: ${corpus.length} entries, ${(share * 100).toFixed(1)} % understood exactly, ${gaps.length} known gap(s)\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`,
    );
    expect(share).toBeGreaterThanOrEqual(0.95);
  });

  it('answers with refined texts that are canonical: written again, they read the same', () => {
    for (const e of corpus) {
      const got = run(e);
      if (got.kind === 'unknown') continue;
      const again = applyFollowUp(got.text, 'as csv', options);
      expect(again).toMatchObject({ kind: 'query', text: got.text });
      expect(parseQuery(got.text, options.glossary).kind).toBeDefined();
    }
  });
});
