import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { z } from 'zod';
import { didYouMean, suggest } from '../core/index.js';
import { checkReport } from './checkReport.js';
import type { ReportProblem } from './loadReports.js';
import { type LoadedReport, reportSchema } from './schema.js';
import { issueMessage, knownKeys } from './schemaMessages.js';

export interface ParseOptions {
  file: string;
  id: string;
  now: Date;
  defaultTimeZone?: string;
}

type Path = ReadonlyArray<string | number | symbol>;

/**
 * Parses one definition's text: YAML syntax, the zod schema, then the catalog checks. Every
 * problem carries the line and column of the offending node (for an unknown key, the key itself).
 *
 * @example parseReportText(text, { file: 'reports/daily-kpi.yaml', id: 'daily-kpi', now: new Date() })
 */
export function parseReportText(
  text: string,
  options: ParseOptions,
): { report?: LoadedReport; problems: ReportProblem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const problems: ReportProblem[] = [];
  const at = (offset: number, message: string, path?: string, suggestions: readonly string[] = []) => {
    const { line, col } = lines.linePos(offset);
    problems.push({ file: options.file, line, col, message, suggestions, ...(path ? { path } : {}) });
  };
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(options.id)) {
    at(0, `the file name "${options.id}" must be a kebab-case report id, like daily-kpi.yaml`);
  }
  for (const error of doc.errors) at(error.pos[0], `YAML: ${error.message.split('\n')[0]}`);
  if (doc.errors.length > 0) return { problems };
  if (doc.contents === null) {
    at(0, 'the file is empty; a report needs at least title and query');
    return { problems };
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (error) {
    at(0, `YAML: ${error instanceof Error ? error.message : String(error)}`);
    return { problems };
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of flattenIssues(parsed.error.issues)) {
      for (const { path, message, suggestions, onKey } of describe(issue, data)) {
        at(offsetOf(doc.contents, path, onKey), message, pathText(path), suggestions);
      }
    }
    return { problems };
  }
  for (const problem of checkReport(parsed.data, options)) {
    at(
      offsetOf(doc.contents, problem.path, problem.onKey === true),
      problem.message,
      pathText(problem.path),
      problem.suggestions,
    );
  }
  problems.sort((a, b) => a.line - b.line || a.col - b.col);
  if (problems.length > 0) return { problems };
  return { report: { id: options.id, file: options.file, definition: parsed.data }, problems };
}

/** Replaces a failed union by the issues of the branch that matched the value's type, when one did. */
function flattenIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const out: z.core.$ZodIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const deeper = issue.errors.find((branch) =>
        branch.every((i) => i.path.length > 0 || (i.code !== 'invalid_type' && i.code !== 'invalid_union')),
      );
      if (deeper) {
        out.push(...flattenIssues(deeper.map((i) => ({ ...i, path: [...issue.path, ...i.path] }))));
        continue;
      }
    }
    out.push(issue);
  }
  return out;
}

function describe(
  issue: z.core.$ZodIssue,
  data: unknown,
): Array<{ path: Path; message: string; suggestions: readonly string[]; onKey: boolean }> {
  if (issue.code === 'unrecognized_keys') {
    const allowed = knownKeys(issue.path);
    return issue.keys.map((key) => {
      const suggestions = suggest(key, allowed);
      const list = allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '';
      return {
        path: [...issue.path, key],
        message: `unknown field "${key}"${list}.${didYouMean(suggestions)}`,
        suggestions,
        onKey: true,
      };
    });
  }
  const value = valueAt(data, issue.path);
  if (value === undefined && issue.code === 'invalid_type') {
    const name = String(issue.path[issue.path.length - 1] ?? 'value');
    return [
      { path: issue.path.slice(0, -1), message: `missing required field "${name}"`, suggestions: [], onKey: false },
    ];
  }
  const { message, suggestions } = issueMessage(issue, value);
  return [{ path: issue.path, message, suggestions, onKey: false }];
}

function valueAt(data: unknown, path: Path): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment as string | number];
  }
  return current;
}

/** The start offset of the node at `path`, or of the deepest ancestor that exists. */
function offsetOf(root: Node | null, path: Path, onKey: boolean): number {
  let node: unknown = root;
  let offset = (root as Node | null)?.range?.[0] ?? 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(segment));
      if (!pair) break;
      const key = pair.key as Node | null;
      const value = pair.value as Node | null;
      if (onKey && segment === path[path.length - 1]) return key?.range?.[0] ?? offset;
      node = value;
      offset = value?.range?.[0] ?? key?.range?.[0] ?? offset;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      if (!item) break;
      node = item;
      offset = item.range?.[0] ?? offset;
    } else break;
  }
  return offset;
}

/** `['query', 'metrics', 2, 'args']` → `query.metrics[2].args`. */
export function pathText(path: Path): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}
