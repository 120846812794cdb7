#!/usr/bin/env node
/**
 * The layout's rules, checked by `npm run lint` (DESIGN: "the layout is the map"):
 * - a folder of src/ imports another only through that folder's `index.ts`, and only a folder the
 *   table below lets it use (the table is the README's layout table, and has no cycle);
 * - no file in src/ is over 400 lines, and no function over 150 lines;
 * - no error code is written as a string literal (`'REPORT_NOT_FOUND'`) outside `core/errorCodes.ts`:
 *   every site names the member (`ErrorCode.ReportNotFound`), so the compiler follows each code;
 * - with `{ unused: true }` (the command line), every edge of the table is used by some import, so
 *   the README's "may use" column is exactly the import graph.
 * `slack/` counts as two folders (`slack/receiver`, `slack/app`), both above `delivery/`.
 *
 * Usage: node scripts/checkLayers.mjs [root]   (exit code 1 and one line per problem)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';

/** Who may import whom (besides itself). Keep in step with the README's layout table. */
export const LAYERS = {
  core: [],
  time: ['core'],
  config: ['core'],
  metrics: [],
  reporting: ['metrics', 'core'],
  view: ['reporting'],
  store: ['core'],
  reports: ['reporting', 'time', 'view', 'core'],
  query: ['reports', 'reporting', 'store', 'time', 'core'],
  explain: ['reporting', 'core'],
  alerts: ['reports', 'store', 'reporting', 'time', 'core'],
  render: ['view', 'alerts', 'reporting', 'core'],
  scheduler: ['time', 'store', 'reports', 'metrics', 'core'],
  slackapi: ['render', 'config', 'metrics', 'core'],
  insights: ['alerts', 'explain', 'reports', 'render', 'store', 'reporting', 'core'],
  delivery: [
    'slackapi',
    'insights',
    'alerts',
    'scheduler',
    'reports',
    'render',
    'store',
    'reporting',
    'metrics',
    'time',
    'core',
  ],
  'slack/receiver': ['slackapi', 'core'],
  'slack/app': [
    'slack/receiver',
    'slackapi',
    'delivery',
    'insights',
    'query',
    'alerts',
    'scheduler',
    'reports',
    'render',
    'store',
    'reporting',
    'config',
    'metrics',
    'time',
    'core',
  ],
  sandbox: ['reporting', 'time', 'core'],
  cli: '*',
};

/** Where the one list of error codes lives, under src/. */
const ERROR_CODES_FILE = join('core', 'errorCodes.ts');

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 150;

/** The folder (layer) a path under src/ belongs to. */
function layerOf(pathInSrc) {
  const parts = pathInSrc.split(sep);
  if (parts[0] === 'slack' && parts.length > 2) return `slack/${parts[1]}`;
  return parts.length > 1 ? parts[0] : '.';
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Folders that can reach themselves through the table. */
export function cyclesIn(layers) {
  const found = [];
  const visit = (start, at, seen) => {
    for (const next of layers[at] === '*' ? [] : (layers[at] ?? [])) {
      if (next === start) found.push(start);
      else if (!seen.has(next)) {
        seen.add(next);
        visit(start, next, seen);
      }
    }
  };
  for (const layer of Object.keys(layers)) visit(layer, layer, new Set());
  return found;
}

/** Calls `visit` on every AST node under `node`. */
function walk(node, visit) {
  if (!node || typeof node.type !== 'string') return;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments') continue;
    if (Array.isArray(value)) for (const child of value) walk(child, visit);
    else if (value && typeof value === 'object') walk(value, visit);
  }
}

const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'ClassPrivateMethod',
  'ObjectMethod',
]);

/** `ErrorCode`'s code strings and their members (`'REPORT_NOT_FOUND'` → `ReportNotFound`), read from its file; none when it is absent. */
function errorCodesIn(src) {
  let text;
  try {
    text = readFileSync(join(src, ERROR_CODES_FILE), 'utf8');
  } catch {
    return new Map();
  }
  return new Map([...text.matchAll(/^\s+(\w+): '([A-Z0-9_]+)',/gm)].map((m) => [m[2], m[1]]));
}

/** The text of a string literal, or of a template literal without substitutions; undefined otherwise. */
function literalText(node) {
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
  return undefined;
}

/** Relative module specifiers (imports, re-exports, `import()`), functions over the limit, and error-code literals. */
function scan(text, codes) {
  const ast = parse(text, { sourceType: 'module', plugins: ['typescript'] });
  const specifiers = [];
  const long = [];
  const literals = [];
  walk(ast.program, (node) => {
    const literal = literalText(node);
    if (literal !== undefined && codes.has(literal)) literals.push({ code: literal, line: node.loc.start.line });
    if (
      (node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') &&
      node.source
    ) {
      specifiers.push({ text: node.source.value, line: node.loc.start.line });
    } else if (node.type === 'ImportExpression' || (node.type === 'CallExpression' && node.callee.type === 'Import')) {
      const arg = node.source ?? node.arguments?.[0];
      if (arg?.type === 'StringLiteral') specifiers.push({ text: arg.value, line: node.loc.start.line });
    } else if (FUNCTIONS.has(node.type)) {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      if (lines > MAX_FUNCTION_LINES) long.push({ line: node.loc.start.line, lines });
    }
  });
  return { specifiers: specifiers.filter((s) => s.text.startsWith('.')), long, literals };
}


/**
 * Every problem under `root/src`, as `path:line: message` lines. With `unused`, also every edge of
 * the table that no import uses.
 */
export function checkLayers(root, layers = LAYERS, { unused = false } = {}) {
  const src = join(root, 'src');
  const problems = cyclesIn(layers).map((l) => `the layer table has a cycle through ${l}`);
  const codes = errorCodesIn(src);
  const used = new Set();
  const present = new Set();
  for (const file of filesUnder(src)) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    const inSrc = relative(src, file);
    const from = layerOf(inSrc);
    present.add(from);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) problems.push(`${where}: ${lines} lines (at most ${MAX_FILE_LINES}); split it`);
    const { specifiers, long, literals } = scan(text, inSrc === ERROR_CODES_FILE ? new Map() : codes);
    for (const f of long) {
      problems.push(`${where}:${f.line}: a function of ${f.lines} lines (at most ${MAX_FUNCTION_LINES}); split it`);
    }
    for (const { code, line } of literals) {
      problems.push(`${where}:${line}: the error code '${code}' as a string; write ErrorCode.${codes.get(code)}`);
    }
    for (const { text: spec, line } of specifiers) {
      const target = relative(src, normalize(join(dirname(file), spec)));
      if (target.startsWith('..')) continue;
      const to = layerOf(target);
      if (to === from || from === '.') continue;
      used.add(`${from} ${to}`);
      const allowed = layers[from];
      if (allowed === undefined) {
        problems.push(`${where}:${line}: the folder ${from} is not in the layer table`);
        continue;
      }
      if (allowed !== '*' && !allowed.includes(to)) {
        problems.push(`${where}:${line}: ${from} may not import ${to} (${spec}); see the layer table`);
      }
      const barrel = target.replace(/\.js$/, '.ts') === join(...to.split('/'), 'index.ts');
      if (!barrel) problems.push(`${where}:${line}: import ${to} through its index.ts, not ${spec}`);
    }
  }
  if (unused) problems.push(...unusedEdges(layers, used, present));
  return problems;
}

/**
 * The table's edges that no import uses (`used` holds `from to` pairs), one line each; with
 * `present`, only edges between folders the tree has.
 */
export function unusedEdges(layers, used, present) {
  const problems = [];
  for (const [from, allowed] of Object.entries(layers)) {
    if (allowed === '*') continue;
    for (const to of allowed) {
      if (present && !(present.has(from) && present.has(to))) continue;
      if (!used.has(`${from} ${to}`)) {
        problems.push(`the layer table lets ${from} use ${to}, but no import does; drop the edge (LAYERS and the README's table)`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLayers(root, LAYERS, { unused: true });
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`checkLayers: ${problems.length} problem(s)`);
    process.exit(1);
  }
}
