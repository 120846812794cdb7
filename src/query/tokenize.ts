import { QueryError } from './QueryError.js';

export type TokenKind = 'word' | 'number' | 'string' | 'op' | 'punct' | 'end';

/** One token with its span in the query text (`end` exclusive). */
export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

const WORD = /[A-Za-z0-9_@#/+.-]/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const MAX_LENGTH = 2000;

/** An apostrophe inside a word ("what's") belongs to the word; elsewhere it opens a quoted string. */
function isApostrophe(text: string, i: number): boolean {
  const c = text.charAt(i);
  return (c === "'" || c === '’') && /[A-Za-z]/.test(text.charAt(i - 1)) && /[A-Za-z]/.test(text.charAt(i + 1));
}

/**
 * Splits a query into words, numbers, quoted strings, operators (`= != > >= < <= ..`) and
 * punctuation (`( ) , :`). A word may hold `/`, `-`, `.` and `+` (time zones, dates, report ids).
 *
 * @example tokenize('spend by countryCode') // word spend, word by, word countryCode, end
 */
export function tokenize(text: string): Token[] {
  if (text.length > MAX_LENGTH) {
    throw new QueryError(`The query is too long (${text.length} characters; at most ${MAX_LENGTH}).`, MAX_LENGTH, 1);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    // "what was spend yesterday?" ends the way people type it: the question mark means nothing.
    if (/\s/.test(c) || c === '?') {
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'" || c === '“' || c === '‘') {
      const close = c === '“' ? '”' : c === '‘' ? '’' : c;
      const endQuote = text.indexOf(close, i + 1);
      if (endQuote < 0) throw new QueryError(`This quote is never closed; add a closing ${close}.`, start, 1);
      tokens.push({ kind: 'string', text: text.slice(i + 1, endQuote), start, end: endQuote + 1 });
      i = endQuote + 1;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '>=' || two === '<=' || two === '!=' || two === '..' || two === '<>') {
      tokens.push({ kind: 'op', text: two === '<>' ? '!=' : two, start, end: i + 2 });
      i += 2;
      continue;
    }
    if (c === '=' || c === '>' || c === '<') {
      tokens.push({ kind: 'op', text: c, start, end: i + 1 });
      i++;
      continue;
    }
    if (c === '&') {
      tokens.push({ kind: 'word', text: 'and', start, end: i + 1 });
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',' || c === ':') {
      tokens.push({ kind: 'punct', text: c, start, end: i + 1 });
      i++;
      continue;
    }
    if (WORD.test(c)) {
      while (i < text.length && (WORD.test(text.charAt(i)) || isApostrophe(text, i)) && text.slice(i, i + 2) !== '..')
        i++;
      const word = text.slice(start, i);
      tokens.push({ kind: NUMBER.test(word) ? 'number' : 'word', text: word, start, end: i });
      continue;
    }
    throw new QueryError(`Unexpected character "${c}".`, start, 1);
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}
