import type { GlossaryIndex } from './GlossaryIndex.js';
import type { Token } from './tokenize.js';

/** Consecutive words that make a glossary phrase become one word token spanning them. */
export function mergePhrases(tokens: Token[], glossary: GlossaryIndex): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'word' && glossary.startsPhrase(t.text.toLowerCase())) {
      const words: string[] = [];
      for (let j = i; j < tokens.length && j < i + 5 && tokens[j]?.kind === 'word'; j++)
        words.push((tokens[j] as Token).text.toLowerCase());
      const phrase = words.length > 1 ? glossary.phraseAt(words) : undefined;
      if (phrase) {
        const last = tokens[i + phrase.length - 1] as Token;
        out.push({ kind: 'word', text: phrase.word, start: t.start, end: last.end });
        i += phrase.length - 1;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}
