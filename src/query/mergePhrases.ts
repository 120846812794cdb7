import type { GlossaryIndex } from './GlossaryIndex.js';
import type { Token } from './tokenize.js';

/**
 * Consecutive words that make a glossary phrase ("cost per install", "week over week") become one
 * word token spanning them, longest phrase first. Runs on every query, so it allocates only when a
 * word starts a phrase.
 */
export function mergePhrases(tokens: Token[], glossary: GlossaryIndex): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const phrase = t.kind === 'word' ? longestAt(tokens, i, glossary) : undefined;
    if (phrase) {
      const last = tokens[i + phrase.length - 1] as Token;
      out.push({ kind: 'word', text: phrase.word, start: t.start, end: last.end });
      i += phrase.length - 1;
    } else out.push(t);
  }
  return out;
}

function longestAt(
  tokens: readonly Token[],
  i: number,
  glossary: GlossaryIndex,
): { length: number; word: string } | undefined {
  const candidates = glossary.phrasesFrom((tokens[i] as Token).text.toLowerCase());
  for (const { words, word } of candidates) {
    const matches = words.every((w, k) => {
      const t = tokens[i + k];
      return t !== undefined && t.kind === 'word' && t.text.length === w.length && t.text.toLowerCase() === w;
    });
    if (matches) return { length: words.length, word };
  }
  return undefined;
}
