import { findDimension, findMetric, getDimension, getMetric } from '../reporting/index.js';
import type { Located, Scalar } from './ast.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { QueryError } from './QueryError.js';

export interface Meaning {
  name: string;
  args?: Readonly<Record<string, Scalar>>;
  as?: string;
  granularity?: string;
}

/**
 * What a word that is no catalog name of `kind` means through the glossary, or undefined when the
 * glossary does not know it. A word that means two things, a field the service does not have, or a
 * metric written where a dimension goes is a `QueryError` that says so and names the real choices.
 *
 * @example meaningOf(word('cpi'), 'metric', defaultGlossary()) // { name: 'installsCpi' }
 */
export function meaningOf(
  word: Located<string>,
  kind: 'metric' | 'dimension',
  glossary: GlossaryIndex,
): Meaning | undefined {
  const term = glossary.lookup(word.value);
  const w = word.value;
  if (!term) {
    const other = kind === 'metric' ? findDimension(w) : findMetric(w);
    if (other) throw wrongPlace(word, kind, other.name, other.description);
    return undefined;
  }
  const m = term.means;
  if (m.kind === 'metric') {
    if (kind === 'metric')
      return { name: m.metric, ...(m.args ? { args: m.args } : {}), ...(m.as ? { as: m.as } : {}) };
    throw wrongPlace(word, kind, m.metric, term.description);
  }
  if (m.kind === 'dimension') {
    if (kind === 'dimension') return { name: m.dimension, ...(m.granularity ? { granularity: m.granularity } : {}) };
    throw wrongPlace(word, kind, m.granularity ? `date:${m.granularity.toLowerCase()}` : m.dimension, term.description);
  }
  if (m.kind === 'ambiguous') {
    const choices = m.choices.map((c) => `${c.name} (${describe(c.name)}; write "${c.say}")`);
    throw QueryError.rephrase(
      word,
      `"${w}" can mean ${choices.join(' or ')}. Which one?`,
      m.choices.map((c) => c.name),
    );
  }
  const nearest = m.nearest.map((n) => `${n} (${describe(n)})`).join(', ');
  throw QueryError.rephrase(
    word,
    `"${w}": the Reporting Service has ${term.description}. The nearest real ${m.what === 'metric' ? 'metrics' : 'dimensions'}: ${nearest}.`,
    m.nearest,
  );
}

function wrongPlace(
  word: Located<string>,
  kind: 'metric' | 'dimension',
  name: string,
  description: string,
): QueryError {
  const hint =
    kind === 'metric'
      ? `it is a dimension (${name}: ${description}); put it after "by": spend by ${name}`
      : `it is a metric (${name}: ${description}); put metrics before "by": ${name} by countryCode`;
  return QueryError.rephrase(word, `"${word.value}" is not a ${kind}: ${hint}.`, [name]);
}

function describe(name: string): string {
  return getMetric(name)?.description ?? getDimension(name)?.description ?? name;
}
