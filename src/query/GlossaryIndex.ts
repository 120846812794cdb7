import { editDistance, suggest } from '../core/index.js';
import { DIMENSIONS, METRICS } from '../reporting/index.js';
import { COUNTRY_NAMES } from './countries.js';
import { GLOSSARY, type GlossaryTerm } from './glossary.js';

/** Grammar phrases read as one word: "week over week" is `wow`, "compared to" is `vs`. */
const GRAMMAR_PHRASES: Readonly<Record<string, string>> = {
  'week over week': 'wow',
  'day over day': 'dod',
  'month over month': 'mom',
  'connected tv': 'ctv',
  'compared to': 'vs',
  'compared with': 'vs',
};

const MAX_PHRASE_WORDS = 5;
const NONE: ReadonlyArray<{ words: readonly string[]; word: string }> = [];

/**
 * The glossary as the parser and compiler use it: one index of every word (built-in terms, then the
 * workspace's, which win on the same word), the multi-word phrases to read as one word, and
 * suggestions by meaning for a word nobody knows.
 *
 * @example defaultGlossary().lookup('cpi')?.means // { kind: 'metric', metric: 'installsCpi' }
 */
export class GlossaryIndex {
  readonly terms: readonly GlossaryTerm[];
  private readonly byWord = new Map<string, GlossaryTerm>();
  /** First word → the phrases it starts (longest first) and the word each reads as. */
  private readonly byFirstWord = new Map<string, Array<{ words: readonly string[]; word: string }>>();

  constructor(terms: readonly GlossaryTerm[]) {
    this.terms = terms;
    for (const term of terms) for (const word of term.words) this.byWord.set(normal(word), term);
    // "publisher bundles", "app bundle": the other number of every word of a dimension (or of a
    // choice between two), where no word has it already. Metrics keep their words ("cpis" is a slip).
    for (const term of terms)
      if (term.means.kind === 'dimension' || term.means.kind === 'ambiguous')
        for (const word of term.words)
          for (const other of otherNumbers(normal(word))) if (!this.byWord.has(other)) this.byWord.set(other, term);
    for (const word of [...this.byWord.keys(), ...COUNTRY_NAMES]) if (word.includes(' ')) this.addPhrase(word, word);
    for (const [phrase, word] of Object.entries(GRAMMAR_PHRASES)) this.addPhrase(phrase, word);
  }

  /** This glossary with the workspace's terms added (they win over built-in words). */
  with(extra: readonly GlossaryTerm[]): GlossaryIndex {
    return extra.length === 0 ? this : new GlossaryIndex([...this.terms, ...extra]);
  }

  /** The term a word or phrase means, in any case. */
  lookup(word: string): GlossaryTerm | undefined {
    // Most words come lower-cased from the parser already: the direct hit skips normalising.
    return this.byWord.get(word) ?? this.byWord.get(normal(word));
  }

  /**
   * The phrases that start with this lower-case word, longest first: their words and the word the
   * parser reads instead. Empty for most words.
   */
  phrasesFrom(word: string): ReadonlyArray<{ words: readonly string[]; word: string }> {
    return this.byFirstWord.get(word) ?? NONE;
  }

  /**
   * Catalog names an unknown word may mean, closest first: glossary words and catalog names near
   * in spelling (a glossary word gives its catalog field: "cpii" → installsCpi, never cpc first),
   * then fields whose description holds the word ("purchase" → eventValue).
   */
  suggest(word: string, kind: 'metric' | 'dimension'): string[] {
    return this.suggestScored(word, kind).names;
  }

  /** `suggest`, with the edit distance of the closest spelling (Infinity when found by description). */
  suggestScored(word: string, kind: 'metric' | 'dimension'): { names: string[]; distance: number } {
    const targets = this.targetsOf(kind);
    const fields = kind === 'metric' ? METRICS : DIMENSIONS;
    const out: string[] = [];
    const push = (names: readonly string[]) => {
      for (const name of names) if (!out.includes(name)) out.push(name);
    };
    // Only candidates near in length can be near in spelling (or start with the word): skip the rest
    // before `suggest` measures them.
    const needle = word.toLowerCase();
    const reach = Math.floor(needle.length * 0.4) + 1;
    const near: string[] = [];
    for (const candidate of targets.keys())
      if (Math.abs(candidate.length - needle.length) <= reach || (needle.length >= 3 && candidate.startsWith(needle)))
        near.push(candidate);
    const spelled = suggest(word, near, 8);
    for (const candidate of spelled) push(targets.get(candidate) ?? []);
    const distance = spelled[0] === undefined ? Number.POSITIVE_INFINITY : editDistance(word.toLowerCase(), spelled[0]);
    if (out.length === 0 && word.length >= 4) {
      const pattern = new RegExp(`\\b${word.toLowerCase().replace(/[^a-z0-9]/g, '')}`, 'i');
      // The catalog's own descriptions first: they say what the field is, a term's only what the word means.
      for (const f of fields) if (pattern.test(f.description)) push([f.name]);
      for (const term of this.terms) if (pattern.test(term.description)) push(namesOf(term, kind));
    }
    return { names: out.slice(0, 3), distance };
  }

  private readonly targets = new Map<'metric' | 'dimension', Map<string, string[]>>();

  /** Every word and catalog name of a kind (lower case) → the catalog fields it means; built once. */
  private targetsOf(kind: 'metric' | 'dimension'): ReadonlyMap<string, string[]> {
    let targets = this.targets.get(kind);
    if (targets) return targets;
    const built = new Map<string, string[]>();
    const add = (candidate: string, names: readonly string[]) =>
      built.set(candidate.toLowerCase(), [...(built.get(candidate.toLowerCase()) ?? []), ...names]);
    for (const f of kind === 'metric' ? METRICS : DIMENSIONS) add(f.name, [f.name]);
    for (const term of this.terms) {
      const names = namesOf(term, kind);
      if (names.length > 0) for (const w of term.words) add(w, names);
    }
    targets = built;
    this.targets.set(kind, targets);
    return targets;
  }

  private addPhrase(phrase: string, word: string): void {
    const words = phrase.split(' ');
    const first = words[0] ?? '';
    if (words.length > MAX_PHRASE_WORDS) return;
    const list = (this.byFirstWord.get(first) ?? []).filter((p) => p.words.join(' ') !== phrase);
    list.push({ words, word });
    list.sort((a, b) => b.words.length - a.words.length);
    this.byFirstWord.set(first, list);
  }
}

/** The catalog fields of a term, when it has some of this kind. */
function namesOf(term: GlossaryTerm, kind: 'metric' | 'dimension'): string[] {
  const m = term.means;
  if (m.kind === 'metric') return kind === 'metric' ? [m.metric] : [];
  if (m.kind === 'dimension') return kind === 'dimension' ? [m.dimension] : [];
  if (m.kind === 'ambiguous') {
    const names = m.choices.map((c) => c.name);
    const isMetric = METRICS.some((x) => x.name === names[0]);
    return isMetric === (kind === 'metric') ? names : [];
  }
  return [];
}

/** The plural and singular of a word's last word ("publisher bundle" → "publisher bundles"). */
function otherNumbers(word: string): string[] {
  const m = /^(.*?)([a-z]+)$/.exec(word);
  if (!m) return [];
  const [, head = '', last = ''] = m;
  const out: string[] = [];
  if (last.length < 3) return out;
  if (/ies$/.test(last)) out.push(`${last.slice(0, -3)}y`);
  else if (/(ss|us|is)$/.test(last)) out.push(`${last}es`);
  else if (/s$/.test(last)) out.push(last.slice(0, -1));
  else if (/[^aeiou]y$/.test(last)) out.push(`${last.slice(0, -1)}ies`);
  else if (/(x|ch|sh)$/.test(last)) out.push(`${last}es`);
  else out.push(`${last}s`);
  return out.map((w) => head + w);
}

function normal(word: string): string {
  return word.trim().toLowerCase().replace(/\s+/g, ' ');
}

let builtIn: GlossaryIndex | undefined;

/** The built-in glossary (`GLOSSARY`), indexed once. */
export function defaultGlossary(): GlossaryIndex {
  builtIn ??= new GlossaryIndex(GLOSSARY);
  return builtIn;
}
