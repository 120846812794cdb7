#!/usr/bin/env node
/**
 * The layout's rules, checked by `npm run lint` (DESIGN: "the layout is the map"):
 * - a folder of src/ imports another only through that folder's `index.ts`, and only a folder the
 *   table below lets it use (the table is the README's layout table, and has no cycle);
 * - no file in src/ is over 400 lines, and no function over 150 lines.
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
  reporting: ['core'],
  view: ['reporting'],
  render: ['view', 'reporting', 'core'],
  store: ['core', 'time'],
  reports: ['reporting', 'time', 'view', 'render', 'core'],
  query: ['reports', 'reporting', 'store', 'time', 'core'],
  explain: ['reporting', 'core'],
  alerts: ['reports', 'explain', 'render', 'store', 'reporting', 'time', 'core'],
  scheduler: ['time', 'store', 'reports', 'core'],
  slackapi: ['render', 'config', 'core'],
  insights: ['alerts', 'explain', 'reports', 'render', 'reporting', 'core'],
  delivery: ['slackapi', 'insights', 'alerts', 'scheduler', 'reports', 'render', 'store', 'reporting', 'time', 'core'],
  'slack/receiver': ['slackapi', 'render', 'core'],
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
    'time',
    'core',
  ],
  sandbox: ['reporting', 'time', 'core'],
  cli: '*',
};

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

/** Relative module specifiers (imports, re-exports, `import()`), and functions over the limit. */
function scan(text) {
  const ast = parse(text, { sourceType: 'module', plugins: ['typescript'] });
  const specifiers = [];
  const long = [];
  walk(ast.program, (node) => {
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
  return { specifiers: specifiers.filter((s) => s.text.startsWith('.')), long };
}

/** Every problem under `root/src`, as `path:line: message` lines. */
export function checkLayers(root, layers = LAYERS) {
  const src = join(root, 'src');
  const problems = cyclesIn(layers).map((l) => `the layer table has a cycle through ${l}`);
  for (const file of filesUnder(src)) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    const inSrc = relative(src, file);
    const from = layerOf(inSrc);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) problems.push(`${where}: ${lines} lines (at most ${MAX_FILE_LINES}); split it`);
    const { specifiers, long } = scan(text);
    for (const f of long) {
      problems.push(`${where}:${f.line}: a function of ${f.lines} lines (at most ${MAX_FUNCTION_LINES}); split it`);
    }
    for (const { text: spec, line } of specifiers) {
      const target = relative(src, normalize(join(dirname(file), spec)));
      if (target.startsWith('..')) continue;
      const to = layerOf(target);
      if (to === from || from === '.') continue;
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
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLayers(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`checkLayers: ${problems.length} problem(s)`);
    process.exit(1);
  }
}
