/**
 * The independent corpora (test/fixtures/independent/): slash queries and thread follow-ups that a
 * helper wrote from README.md, docs/query-language.md and docs/slack.md alone, in Slack's wire
 * format, without reading the parser. This module reads each entry the way the bot does (decode
 * the wire text, then the slash command's split or the follow-up reader) and grades it:
 * - `exact`: the query it must mean (same compiled definition, same csv / why), or a refusal
 *   where the corpus says it must be refused;
 * - `missed`: refused (with suggestions) where the corpus expects a query: not understood, never
 *   harmful;
 * - `wrong`: any other query than the expected one, or a query where a refusal was expected: the
 *   figure that must stay 0.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  applyFollowUp,
  type CompiledQuery,
  compileQuery,
  defaultGlossary,
  parseWorkspaceGlossary,
  type QueryOptions,
} from '../../src/query/index.js';
import { parseSlashCommand } from '../../src/slack/app/parseSlashCommand.js';

export interface CorpusEntry {
  typed: string;
  text: string;
  parent?: string;
  query?: string;
  refuse?: string;
  why?: boolean;
  csv?: boolean;
  chart?: boolean;
  docs?: string;
  note?: string;
}

export type Verdict = 'exact' | 'missed' | 'wrong';
export interface Graded {
  entry: CorpusEntry;
  verdict: Verdict;
  detail: string;
}

export const CORPUS_NOW = new Date('2026-11-20T12:00:00Z');

const workspace = parseWorkspaceGlossary(readFileSync('reports/glossary.yaml', 'utf8'), 'reports/glossary.yaml');
export const corpusOptions: QueryOptions = {
  now: CORPUS_NOW,
  defaultTimeZone: 'UTC',
  glossary: defaultGlossary().with(workspace.terms),
};

/** `independent`: the corpora the words were built against; `heldout`: written afterwards from the docs, never tuned on. */
export function loadCorpus(
  name: 'slash-queries' | 'followups',
  set: 'independent' | 'heldout' = 'independent',
): CorpusEntry[] {
  return parse(readFileSync(`test/fixtures/${set}/${name}.yaml`, 'utf8')) as CorpusEntry[];
}

/** What a query text asks, as the compiler defines it (the report definition minus title and description). */
export function meaning(text: string): string {
  const compiled = compileQuery(text, corpusOptions);
  if (compiled.kind === 'run') return JSON.stringify({ run: compiled.report.value, range: compiled.range });
  const { title: _t, description: _d, ...definition } = (compiled as CompiledQuery).definition;
  return JSON.stringify(definition);
}

type Reading =
  | { kind: 'query'; text: string; why: boolean; csv: boolean; chart?: boolean }
  | { kind: 'refused'; message: string }
  | { kind: 'command'; what: string };

function readSlash(text: string): Reading {
  try {
    const command = parseSlashCommand(text);
    if (command.kind === 'why' || command.kind === 'query') {
      const compiled = compileQuery(command.text, corpusOptions);
      const csv = compiled.kind === 'run' ? false : (compiled as CompiledQuery).csv;
      return { kind: 'query', text: command.text, why: command.kind === 'why', csv };
    }
    return { kind: 'command', what: command.kind };
  } catch (error) {
    return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
  }
}

function readFollowUp(parent: string, reply: string): Reading {
  try {
    const answer = applyFollowUp(parent, reply, corpusOptions);
    if (answer.kind === 'unknown') return { kind: 'refused', message: answer.message };
    if (answer.kind === 'why') return { kind: 'query', text: answer.text, why: true, csv: false };
    return { kind: 'query', text: answer.text, why: false, csv: answer.csv ?? false, chart: answer.chart ?? false };
  } catch (error) {
    return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Grades one entry; `decode` turns the wire text into what the reader is given (identity: read the wire text as is). */
export function grade(entry: CorpusEntry, decode: (wire: string) => string): Graded {
  const input = decode(entry.text);
  const got = entry.parent === undefined ? readSlash(input) : readFollowUp(entry.parent, input);
  const out = (verdict: Verdict, detail: string): Graded => ({ entry, verdict, detail });
  if (entry.refuse !== undefined) {
    if (got.kind === 'query') return out('wrong', `expected a refusal, ran ${got.text}`);
    return out('exact', got.kind === 'refused' ? got.message : got.what);
  }
  if (got.kind === 'refused') return out('missed', got.message);
  if (got.kind === 'command') return out('wrong', `read as the command ${got.what}`);
  let expected: string;
  try {
    expected = meaning(entry.query ?? '');
  } catch (error) {
    // The expected query uses words the language does not have yet: the reply cannot be exact.
    return out('wrong', `ran ${got.text}; the expected query does not compile (${(error as Error).message})`);
  }
  const actual = meaning(got.text);
  if (actual !== expected) return out('wrong', `ran ${got.text}, expected ${entry.query}`);
  if (got.why !== (entry.why ?? false)) return out('wrong', `why=${got.why}`);
  if (got.csv !== (entry.csv ?? false)) return out('wrong', `csv=${got.csv}`);
  if (got.chart !== undefined && got.chart !== (entry.chart ?? false)) return out('wrong', `chart=${got.chart}`);
  return out('exact', got.text);
}

export interface Score {
  n: number;
  exact: number;
  missed: number;
  wrong: number;
  graded: Graded[];
}

export function score(entries: readonly CorpusEntry[], decode: (wire: string) => string): Score {
  const graded = entries.map((e) => grade(e, decode));
  const count = (v: Verdict) => graded.filter((g) => g.verdict === v).length;
  return { n: graded.length, exact: count('exact'), missed: count('missed'), wrong: count('wrong'), graded };
}

export function scoreLine(name: string, s: Score): string {
  const pct = (k: number) => `${((100 * k) / s.n).toFixed(1)} %`;
  return `${name}: ${s.n} entries, exact ${s.exact} (${pct(s.exact)}), refused where a query was expected ${s.missed} (${pct(s.missed)}), wrong ${s.wrong}`;
}
