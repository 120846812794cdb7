import { QueryError } from './QueryError.js';
import type { Token } from './tokenize.js';

/** Walks the tokens of a query for the parser; every error it makes points at a token. */
export class Cursor {
  private index = 0;
  /** Lower-cased word texts, once per token: the parser asks for them many times per word. */
  private readonly words: readonly string[];

  /**
   * @param upperCaseCodes two letters are a country code only as typed in upper case (`IT`, not
   * `it`): in thread replies, where "on it" and "for us" are words.
   */
  constructor(
    private readonly tokens: readonly Token[],
    readonly upperCaseCodes = false,
  ) {
    this.words = tokens.map((t) => (t.kind === 'word' ? t.text.toLowerCase() : ''));
  }

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  /** The lower-cased text of a word `ahead` tokens on, or '' when it is not a word. */
  peekWord(ahead = 0): string {
    return this.words[Math.min(this.index + ahead, this.tokens.length - 1)] ?? '';
  }

  next(): Token {
    const t = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return t;
  }

  /** Steps back over the token just taken. */
  back(): void {
    if (this.index > 0) this.index--;
  }

  /** End offset of the last token taken. */
  lastEnd(): number {
    return (this.tokens[Math.max(0, this.index - 1)] as Token).end;
  }

  atEnd(): boolean {
    return this.peek().kind === 'end';
  }

  /** Takes the punctuation or operator `text`, or fails pointing at what stands there. */
  expect(text: string, hint: string): Token {
    const t = this.next();
    if ((t.kind === 'punct' || t.kind === 'op') && t.text === text) return t;
    throw this.error(t, hint);
  }

  /** Takes the word `word` (any case), or fails. */
  expectWord(word: string): Token {
    const t = this.next();
    if (t.kind === 'word' && t.text.toLowerCase() === word) return t;
    throw this.error(t, `Expected "${word}" here${t.kind === 'end' ? '' : `, not "${t.text}"`}.`, [word]);
  }

  /** Takes a word or quoted string (a name or value), or fails. */
  name(what: string): Token {
    const t = this.next();
    if (t.kind === 'word' || t.kind === 'string') return t;
    throw this.error(t, `Expected ${what}${t.kind === 'end' ? ' at the end' : `, not "${t.text}"`}.`);
  }

  error(t: Token, message: string, suggestions: readonly string[] = []): QueryError {
    const span = t.kind === 'end' ? { start: t.start, end: t.start + 1 } : t;
    return QueryError.at(span, message, suggestions);
  }
}
