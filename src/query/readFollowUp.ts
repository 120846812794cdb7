/**
 * The words around a follow-up's edit: "also", "and", "drop", "instead (of …)", "only", "why",
 * "as csv", "chart", "same for", "what about", "please". Reading them leaves the edit itself (the
 * rest), which `readEdit` parses with the query language. Pure: no parent, no catalog.
 */
import { defaultGlossary, type GlossaryIndex } from './GlossaryIndex.js';
import { mergePhrases } from './mergePhrases.js';
import { SAME_WHAT } from './parsePhrasings.js';
import { WHY_NOISE, withoutFillers } from './politeness.js';
import { type Token, tokenize } from './tokenize.js';

export interface FollowUpWords {
  why: boolean;
  csv: boolean;
  chart: boolean;
  /** "also", "add", "plus", "with", "too", "as well": metrics, dimensions and filter values add up. */
  add: boolean;
  /** A leading "and": metrics and dimensions add up ("and installs"); filters still replace ("and for US?"). */
  and: boolean;
  /** "drop", "remove", "without", "no", "excluding": take out. */
  remove: boolean;
  /** The word that took out, lower case ("drop", "without", "excluding"…): a value's fate depends on it. */
  removeWord?: string;
  /** "only", "just", "same for", "what about": the values that follow filter ("same for us" is US). */
  only: boolean;
  /** "by source instead of country": the field that the edit replaces. */
  insteadOf?: Span;
  /** What is left to read, with the reply's other words blanked (same offsets as the reply). */
  rest: string;
  /** The words left, lower case, with their spans. */
  words: ReadonlyArray<{ word: string; token: Token }>;
}

export interface Span {
  start: number;
  end: number;
  text: string;
}

type Effect = 'none' | 'add' | 'and' | 'remove' | 'why' | 'only';
const LEADING: ReadonlyArray<readonly [string, Effect]> = [
  ['what about', 'only'],
  ['how about', 'only'],
  ['what if', 'none'],
  ['can you', 'none'],
  ['could you', 'none'],
  ['show me', 'none'],
  ['give me', 'none'],
  ["let's see", 'none'],
  ['lets see', 'none'],
  ['same thing for', 'only'],
  ['same for', 'only'],
  ['same but', 'none'],
  ['same with', 'none'],
  ['same', 'none'],
  ['ok', 'none'],
  ['okay', 'none'],
  ['now', 'none'],
  ['then', 'none'],
  ['so', 'none'],
  ['hmm', 'none'],
  ['hm', 'none'],
  ['um', 'none'],
  ['well', 'none'],
  ['that', 'none'],
  ['but', 'none'],
  ['please', 'none'],
  ['pls', 'none'],
  ['hey', 'none'],
  ['show', 'none'],
  ['try', 'none'],
  ['get', 'none'],
  ['instead', 'none'],
  ['and also', 'add'],
  ['also', 'add'],
  ['plus', 'add'],
  ['add', 'add'],
  ['include', 'add'],
  ['with', 'add'],
  ['and', 'and'],
  ['just', 'only'],
  ['only', 'only'],
  ['why', 'why'],
  ['explain', 'why'],
  ['what changed', 'why'],
  ['what happened', 'why'],
  ['what drove', 'why'],
  ['drop', 'remove'],
  ['remove', 'remove'],
  ['without', 'remove'],
  ['no', 'remove'],
  ['exclude', 'remove'],
  ['excluding', 'remove'],
  ['except', 'remove'],
  ['hide', 'remove'],
  ['minus', 'remove'],
  ['skip', 'remove'],
  ['not', 'remove'],
  ['get rid of', 'remove'],
  ['take out', 'remove'],
  ['leave out', 'remove'],
];
const TRAILING: ReadonlyArray<readonly [string, Effect]> = [
  ['instead', 'none'],
  ['please', 'none'],
  ['pls', 'none'],
  ['then', 'none'],
  ['now', 'none'],
  ['again', 'none'],
  ['too', 'add'],
  ['as well', 'add'],
  ['also', 'add'],
  ['only', 'only'],
];
const LEADING_WORDS = LEADING.map(([p, e]) => [p.split(' '), e] as const);
const TRAILING_WORDS = TRAILING.map(([p, e]) => [p.split(' '), e] as const);

/** "as csv", "in a spreadsheet", "export", "download". */
const CSV_WORDS = new Set(['csv', 'spreadsheet', 'export', 'download', 'excel']);
const CHART_WORDS = new Set(['chart', 'graph', 'plot', 'visualize', 'visualise']);
/** Words that may stand before a csv or chart word and go with it: "send me as a line chart". */
const FLAG_LEAD = new Set([
  'as',
  'in',
  'a',
  'an',
  'send',
  'get',
  'me',
  'with',
  'draw',
  'line',
  'bar',
  'it',
  'show',
  'that',
  'this',
  'make',
  'into',
  'turn',
]);
const FLAG_TAIL = new Set(['file', 'it', 'please', 'pls', 'too', 'also']);

/**
 * Reads the words around a follow-up's edit. Throws the tokenizer's `QueryError` on text the query
 * language cannot split (an unclosed quote, an emoji).
 *
 * @example readFollowUp('also by source please').add // true; .rest.trim() === 'by source'
 */
export function readFollowUp(reply: string, glossary: GlossaryIndex = defaultGlossary()): FollowUpWords {
  const trimmed = reply.replace(/[\s.!…]+$/u, '');
  const tokens = mergePhrases(withoutFillers(tokenize(trimmed)), glossary).filter((t) => t.kind !== 'end');
  const kept = tokens.map(() => true);
  const lower = tokens.map((t) => (t.kind === 'word' ? t.text.toLowerCase() : t.text));
  const out: Omit<FollowUpWords, 'rest' | 'words'> = {
    why: false,
    csv: false,
    chart: false,
    add: false,
    and: false,
    remove: false,
    only: false,
  };
  const apply = (effect: Effect) => {
    if (effect === 'add') out.add = true;
    else if (effect === 'and') out.and = true;
    else if (effect === 'remove') out.remove = true;
    else if (effect === 'why') out.why = true;
    else if (effect === 'only') out.only = true;
  };
  takeFlags(lower, kept, CSV_WORDS, () => {
    out.csv = true;
  });
  takeFlags(lower, kept, CHART_WORDS, () => {
    out.chart = true;
  });
  // "instead of country": the tail names what the edit replaces.
  const instead = lower.findIndex((w, i) => kept[i] && w === 'instead' && lower[i + 1] === 'of');
  if (instead >= 0) {
    const tail = tokens.slice(instead + 2).filter((_, k) => kept[instead + 2 + k]);
    const first = tail[0];
    const last = tail[tail.length - 1];
    if (first && last)
      out.insteadOf = { start: first.start, end: last.end, text: trimmed.slice(first.start, last.end) };
    for (let i = instead; i < tokens.length; i++) kept[i] = false;
  }
  const live = () => tokens.map((_, i) => i).filter((i) => kept[i]);
  // Leading words, longest phrase first, as long as some match ("ok so also …"); what follows
  // "drop" is what to drop, read as it stands.
  for (let again = true; again; ) {
    again = false;
    const at = live();
    // "same period last month" is a comparison, not "same" and a reply.
    if (lower[at[0] ?? -1] === 'same' && SAME_WHAT.has(lower[at[1] ?? -1] ?? '')) break;
    for (const [words, effect] of LEADING_WORDS) {
      if (at.length >= words.length && words.every((w, k) => lower[at[k] ?? -1] === w)) {
        for (let k = 0; k < words.length; k++) kept[at[k] as number] = false;
        apply(effect);
        if (effect === 'remove') out.removeWord = words.join(' ');
        again = effect !== 'remove';
        break;
      }
    }
  }
  for (let again = true; again; ) {
    again = false;
    const at = live();
    for (const [words, effect] of TRAILING_WORDS) {
      const from = at.length - words.length;
      if (from > 0 && words.every((w, k) => lower[at[from + k] ?? -1] === w)) {
        for (let k = 0; k < words.length; k++) kept[at[from + k] as number] = false;
        apply(effect);
        again = true;
        break;
      }
    }
  }
  if (out.why) for (const i of live()) if (WHY_NOISE.has(lower[i] ?? '')) kept[i] = false;
  let rest = '';
  const words: Array<{ word: string; token: Token }> = [];
  let cursor = 0;
  for (const [i, t] of tokens.entries()) {
    if (!kept[i]) continue;
    rest += ' '.repeat(t.start - cursor) + trimmed.slice(t.start, t.end);
    cursor = t.end;
    words.push({ word: lower[i] ?? '', token: t });
  }
  return { ...out, rest, words };
}

/** Takes the csv or chart words and the small words that go with them ("as a csv file"). */
function takeFlags(lower: readonly string[], kept: boolean[], flagWords: ReadonlySet<string>, found: () => void) {
  for (let i = 0; i < lower.length; i++) {
    if (!kept[i] || !flagWords.has(lower[i] ?? '')) continue;
    found();
    kept[i] = false;
    for (let j = i - 1; j >= 0 && kept[j] && FLAG_LEAD.has(lower[j] ?? ''); j--) kept[j] = false;
    for (let j = i + 1; j < lower.length && kept[j] && FLAG_TAIL.has(lower[j] ?? ''); j++) kept[j] = false;
  }
}
