import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isScalar, LineCounter, type Node, parseDocument } from 'yaml';
import { didYouMean, suggest } from '../core/index.js';
import { findDimension, findMetric, getDimension, getMetric } from '../reporting/index.js';
import type { LoadedReports, ReportProblem } from '../reports/index.js';
import type { Scalar } from './ast.js';
import { compileQuery } from './compileQuery.js';
import { defaultGlossary, type GlossaryIndex } from './GlossaryIndex.js';
import type { GlossaryTerm } from './glossary.js';
import { parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';

/** The file, in the reports folder, where a workspace adds its own words. */
export const GLOSSARY_FILE = 'glossary.yaml';

const ENTRY_KEYS = ['metric', 'dimension', 'description', 'also'];

/**
 * Reads a workspace glossary (`reports/glossary.yaml`): the team's own words, each meaning a metric
 * written in the query language (`events(eventId=1014) as purchases`) or a dimension, checked
 * against the catalog. Every problem is a `file:line:col` problem, like a report's.
 *
 * ```yaml
 * words:
 *   purchases:
 *     metric: events(eventId=1014) as purchases
 *     description: purchases in Word Garden (event 1014)
 * ```
 *
 * @example parseWorkspaceGlossary(text, 'reports/glossary.yaml').terms
 */
export function parseWorkspaceGlossary(
  text: string,
  file: string,
): { terms: GlossaryTerm[]; problems: ReportProblem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const problems: ReportProblem[] = [];
  const terms: GlossaryTerm[] = [];
  const at = (node: Node | null | undefined, message: string, path: string, suggestions: readonly string[] = []) => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    problems.push({ file, line, col, path, message, suggestions });
  };
  for (const error of doc.errors) {
    const { line, col } = lines.linePos(error.pos[0]);
    problems.push({ file, line, col, message: `YAML: ${error.message.split('\n')[0]}`, suggestions: [] });
  }
  if (doc.errors.length > 0 || doc.contents === null) return { terms, problems };
  const root = doc.contents;
  if (!isMap(root)) {
    at(root, 'the glossary is a map with one key, words:', '');
    return { terms, problems };
  }
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'words') at(pair.key as Node, `unknown key "${key}"; the glossary has one key, words:`, key);
  }
  const words = root.get('words', true);
  if (!isMap(words)) {
    at(
      words ?? root,
      'words: must map each word to its meaning (purchases: { metric: events(eventId=1014) })',
      'words',
    );
    return { terms, problems };
  }
  for (const pair of words.items) {
    const word = isScalar(pair.key) ? String(pair.key.value).trim().toLowerCase() : '';
    const path = `words.${word}`;
    const entry = pair.value;
    if (word === '' || !isMap(entry)) {
      at((entry ?? pair.key) as Node, 'each word maps to { metric: … } or { dimension: … }, with a description', path);
      continue;
    }
    for (const item of entry.items) {
      const name = isScalar(item.key) ? String(item.key.value) : '';
      if (!ENTRY_KEYS.includes(name)) {
        const near = suggest(name, ENTRY_KEYS);
        at(item.key as Node, `unknown key "${name}".${didYouMean(near)} Keys: ${ENTRY_KEYS.join(', ')}.`, path, near);
      }
    }
    if (findMetric(word) || findDimension(word)) {
      at(pair.key as Node, `"${word}" is a catalog name already; it always means the catalog's field`, path);
      continue;
    }
    const metric = entry.get('metric', true);
    const dimension = entry.get('dimension', true);
    const description = entry.get('description');
    const also = entry.get('also', true);
    const extraWords =
      also === undefined
        ? []
        : isScalar(also)
          ? [String(also.value)]
          : ((also as unknown as { items?: unknown[] }).items?.map((i) => String(isScalar(i) ? i.value : '')) ?? []);
    const source = metric ?? dimension;
    if ((metric === undefined) === (dimension === undefined) || !isScalar(source)) {
      at(entry, 'give exactly one of metric: or dimension:, written as in a query', path);
      continue;
    }
    const meaning = compileMeaning(String(source.value), metric !== undefined ? 'metric' : 'dimension');
    if (typeof meaning === 'string') {
      at(source, meaning, `${path}.${metric !== undefined ? 'metric' : 'dimension'}`);
      continue;
    }
    terms.push({
      words: [word, ...extraWords.map((w) => w.trim().toLowerCase()).filter((w) => w !== '')],
      description: typeof description === 'string' ? description : meaning.description,
      means: meaning.means,
    });
  }
  return { terms, problems };
}

/** A metric or dimension written as in a query, checked by the compiler itself, or its problem. */
function compileMeaning(
  text: string,
  kind: 'metric' | 'dimension',
): { means: GlossaryTerm['means']; description: string } | string {
  const query = kind === 'metric' ? text : `spend by ${text}`;
  try {
    const compiled = compileQuery(query, { now: new Date(0) });
    if (compiled.kind === 'run') return `"${text}" is not a ${kind}`;
    const fields = kind === 'metric' ? compiled.definition.query.metrics : compiled.definition.query.dimensions;
    const ast = parseQuery(query);
    const written = ast.kind === 'adhoc' ? (kind === 'metric' ? ast.metrics : ast.dimensions) : [];
    if (fields.length !== 1 || written.length !== 1)
      return `write one ${kind}, like ${kind === 'metric' ? 'events(eventId=1014) as purchases' : 'countryCode'}`;
    const spec = fields[0];
    if (spec === undefined || typeof spec === 'string') return `"${text}" is not a ${kind}`;
    return kind === 'metric' ? metricMeaning(spec) : dimensionMeaning(spec);
  } catch (error) {
    if (error instanceof QueryError) return error.message;
    throw error;
  }
}

type CompiledField = { name: string; args?: Record<string, unknown> | undefined; as?: string | undefined };

function metricMeaning(spec: CompiledField): { means: GlossaryTerm['means']; description: string } {
  return {
    means: {
      kind: 'metric',
      metric: spec.name,
      ...(spec.args ? { args: spec.args as Record<string, Scalar> } : {}),
      ...(spec.as ? { as: spec.as } : {}),
    },
    description: getMetric(spec.name)?.description ?? spec.name,
  };
}

function dimensionMeaning(spec: CompiledField): {
  means: GlossaryTerm['means'];
  description: string;
} {
  const granularity = spec.args?.granularity;
  return {
    means: { kind: 'dimension', dimension: spec.name, ...(typeof granularity === 'string' ? { granularity } : {}) },
    description: getDimension(spec.name)?.description ?? spec.name,
  };
}

const cache = new WeakMap<object, { glossary: GlossaryIndex; problems: ReportProblem[] }>();

/**
 * The glossary of a loaded reports folder: the built-in words with the workspace's
 * (`LoadedReports.glossary`) added, parsed once per load.
 *
 * @example compileQuery(text, { now, glossary: workspaceGlossaryOf(await loadReports()).glossary })
 */
export function workspaceGlossaryOf(loaded: Pick<LoadedReports, 'glossary'>): {
  glossary: GlossaryIndex;
  problems: ReportProblem[];
} {
  const source = loaded.glossary;
  if (!source) return { glossary: defaultGlossary(), problems: [] };
  const hit = cache.get(source);
  if (hit) return hit;
  const { terms, problems } = parseWorkspaceGlossary(source.text, source.file);
  const result = { glossary: defaultGlossary().with(terms), problems };
  cache.set(source, result);
  return result;
}

/**
 * Reads `glossary.yaml` from a reports folder on its own (for `pivotbot query`, which needs no
 * report). No file: the built-in glossary.
 *
 * @example const { glossary, problems } = await loadWorkspaceGlossary('reports')
 */
export async function loadWorkspaceGlossary(
  dir: string,
): Promise<{ glossary: GlossaryIndex; problems: ReportProblem[] }> {
  const file = join(dir, GLOSSARY_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { glossary: defaultGlossary(), problems: [] };
    throw error;
  }
  const { terms, problems } = parseWorkspaceGlossary(text, file);
  return { glossary: defaultGlossary().with(terms), problems };
}
