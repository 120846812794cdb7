/**
 * The words around a question that are no part of it: politeness ("pls", "thx"), address ("hey",
 * "can u", "cc" before the people a line is sent to), and the verbs of a breakdown ("split it by",
 * "break down by" are "by"). They are taken out of the tokens before the query language reads a
 * line, wherever they stand, so one of them no longer sinks a readable line.
 */
import type { Token } from './tokenize.js';

/** Taken out anywhere. Longest first where one phrase starts another. */
const ANYWHERE: ReadonlyArray<readonly string[]> = [
  ['thank', 'you'],
  ['thank', 'u'],
  ['can', 'you'],
  ['can', 'u'],
  ['can', 'i'],
  ['can', 'we'],
  ['could', 'you'],
  ['could', 'u'],
  ['could', 'i'],
  ['could', 'we'],
  ['would', 'you'],
  ['would', 'u'],
  ['pls'],
  ['plz'],
  ['please'],
  ['thx'],
  ['thanks'],
  ['hey'],
  ['hi'],
  ['hello'],
  ['kindly'],
];
/** Taken out before `by` / `per` only: "split it by os" is "by os". */
const BEFORE_BY: ReadonlyArray<readonly string[]> = [
  ['break', 'it', 'down'],
  ['split', 'it', 'out'],
  ['split', 'it', 'up'],
  ['break', 'down'],
  ['broken', 'down'],
  ['split', 'out'],
  ['split', 'up'],
  ['split', 'it'],
  ['breakdown'],
  ['split'],
];

const wordAt = (tokens: readonly Token[], i: number): string => {
  const t = tokens[i];
  return t?.kind === 'word' ? t.text.toLowerCase() : '';
};

function matchAt(tokens: readonly Token[], i: number, phrases: ReadonlyArray<readonly string[]>): number {
  for (const words of phrases) if (words.every((w, k) => wordAt(tokens, i + k) === w)) return words.length;
  return 0;
}

/**
 * The tokens without the politeness and address words, and without the verbs of "split it by".
 * A `cc` at the end goes too (the people it addresses are mentions, which the Slack decoder
 * drops). Spans are kept, so errors still point into the text as written.
 *
 * @example withoutFillers(tokenize('can u split it by os pls')).map((t) => t.text) // ['by', 'os', '']
 */
export function withoutFillers(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const anywhere = matchAt(tokens, i, ANYWHERE);
    if (anywhere > 0) {
      i += anywhere - 1;
      continue;
    }
    const verb = matchAt(tokens, i, BEFORE_BY);
    const after = wordAt(tokens, i + verb);
    if (verb > 0 && (after === 'by' || after === 'per')) {
      i += verb - 1;
      continue;
    }
    if (wordAt(tokens, i) === 'cc' && tokens[i + 1]?.kind === 'end') continue;
    out.push(tokens[i] as Token);
  }
  return out;
}

/** Words around "why" that say nothing about the query: "why did it go up so much?". */
export const WHY_NOISE: ReadonlySet<string> = new Set(
  'is did does do was were has have it its this that these those so much go went up down high low higher lower move moved moving change changed changing drop dropped spike spiked jump jumped increase increased decrease decreased fall fell rise rose happen happened there'.split(
    ' ',
  ),
);

/**
 * The query of a `/pivot why …` line: the words that only say something moved ("is", "up", "did",
 * "drop") taken out, the rest as written.
 *
 * @example whyQueryText('is cpi up in US yesterday?') // 'cpi in US yesterday?'
 */
export function whyQueryText(text: string): string {
  return text
    .split(/\s+/)
    .filter((w) => w !== '' && !WHY_NOISE.has(w.toLowerCase().replace(/[?!.,]+$/u, '')))
    .join(' ');
}
