import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLayers, cyclesIn, LAYERS, type LayerTable, unusedEdges } from '../../../scripts/checkLayers.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCRIPT = join(REPO, 'scripts', 'checkLayers.mjs');

const roots: string[] = [];

/** A fixture repository in a temp dir: `files` maps paths under `src/` to their text. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, 'src', path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return root;
}

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** The index files the fixtures import through. */
const INDEXES = {
  'core/index.ts': "export const core = 'core';\n",
  'slackapi/index.ts': "export const api = 'api';\n",
  'slackapi/WebApiGateway.ts': "export const gateway = 'gateway';\n",
};

/** A function whose declaration spans `lines` lines, first to last. */
function functionOfLines(lines: number): string {
  const body = Array.from({ length: lines - 3 }, (_, i) => `  const v${i} = ${i};`);
  return ['export function long(): number {', ...body, '  return 0;', '}'].join('\n');
}

describe('checkLayers', () => {
  it('refuses a wrong-way import with a line naming both folders', () => {
    const root = fixture({
      ...INDEXES,
      'core/x.ts': "import { api } from '../slackapi/index.js';\nexport const x = api;\n",
    });
    expect(checkLayers(root)).toEqual([
      `${join('src', 'core', 'x.ts')}:1: core may not import slackapi (../slackapi/index.js); see the layer table`,
    ]);
  });

  it('refuses an import past another folder’s index.ts, in every import form', () => {
    const root = fixture({
      ...INDEXES,
      'delivery/x.ts': [
        "import { core } from '../core/index.js';",
        "import { gateway } from '../slackapi/WebApiGateway.js';",
        "export { gateway as g } from '../slackapi/WebApiGateway.js';",
        "export const later = () => import('../slackapi/WebApiGateway.js');",
        'export const x = [core, gateway];',
        '',
      ].join('\n'),
    });
    const where = join('src', 'delivery', 'x.ts');
    expect(checkLayers(root)).toEqual([
      `${where}:2: import slackapi through its index.ts, not ../slackapi/WebApiGateway.js`,
      `${where}:3: import slackapi through its index.ts, not ../slackapi/WebApiGateway.js`,
      `${where}:4: import slackapi through its index.ts, not ../slackapi/WebApiGateway.js`,
    ]);
  });

  it('passes an allowed import through index.ts, and imports inside a folder', () => {
    const root = fixture({
      ...INDEXES,
      'delivery/x.ts':
        "import { api } from '../slackapi/index.js';\nimport { y } from './y.js';\nexport const x = [api, y];\n",
      'delivery/y.ts': "import { core } from '../core/index.js';\nexport const y = core;\n",
      'slackapi/index.ts': "export { gateway as api } from './WebApiGateway.js';\n",
    });
    expect(checkLayers(root)).toEqual([]);
  });

  it('names a folder that is not in the layer table', () => {
    const root = fixture({
      ...INDEXES,
      'attic/x.ts': "import { core } from '../core/index.js';\nexport const x = core;\n",
    });
    expect(checkLayers(root)).toEqual([
      `${join('src', 'attic', 'x.ts')}:1: the folder attic is not in the layer table`,
    ]);
  });

  it('reports a file over 400 lines, and not one of exactly 400', () => {
    const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n')}\n`;
    const root = fixture({ 'core/long.ts': lines(401), 'core/full.ts': lines(400) });
    expect(checkLayers(root)).toEqual([`${join('src', 'core', 'long.ts')}: 401 lines (at most 400); split it`]);
  });

  it('reports a function over 150 lines where it starts, and not one of exactly 150', () => {
    const root = fixture({
      'core/long.ts': `// a comment line first\n${functionOfLines(151)}\n`,
      'core/full.ts': `${functionOfLines(150)}\n`,
    });
    expect(checkLayers(root)).toEqual([
      `${join('src', 'core', 'long.ts')}:2: a function of 151 lines (at most 150); split it`,
    ]);
  });

  it('reports a cycle in the table it is given', () => {
    const cyclic: LayerTable = { core: [], a: ['b', 'core'], b: ['c'], c: ['a'], cli: '*' };
    expect(cyclesIn(cyclic).sort()).toEqual(['a', 'b', 'c']);
    expect(checkLayers(fixture({ ...INDEXES }), cyclic)).toEqual([
      'the layer table has a cycle through a',
      'the layer table has a cycle through b',
      'the layer table has a cycle through c',
    ]);
    expect(cyclesIn({ core: [], a: ['core'], b: ['a', 'core'], cli: '*' })).toEqual([]);
  });

  it.each([
    ['slackapi', 'delivery'],
    ['slackapi', 'insights'],
    ['slackapi', 'slack/app'],
    ['slackapi', 'reports'],
    ['insights', 'delivery'],
    ['insights', 'slackapi'],
    ['insights', 'slack/app'],
    ['alerts', 'insights'],
    ['explain', 'insights'],
    ['reports', 'insights'],
    ['render', 'slackapi'],
    ['core', 'slackapi'],
    ['delivery', 'slack/receiver'],
    ['delivery', 'slack/app'],
    ['slack/receiver', 'delivery'],
    ['slack/receiver', 'slack/app'],
  ])('refuses %s importing %s, the wrong way into or out of the new folders', (from, to) => {
    const depth = from.split('/').length;
    const up = '../'.repeat(depth);
    const root = fixture({
      [`${to}/index.ts`]: "export const there = 'there';\n",
      [`${from}/x.ts`]: `import { there } from '${up}${to}/index.js';\nexport const x = there;\n`,
    });
    expect(checkLayers(root)).toEqual([
      `${join('src', ...from.split('/'), 'x.ts')}:1: ${from} may not import ${to} (${up}${to}/index.js); see the layer table`,
    ]);
  });

  it.each([
    ['delivery', 'slackapi'],
    ['delivery', 'insights'],
    ['insights', 'explain'],
    ['insights', 'alerts'],
    ['slack/receiver', 'slackapi'],
    ['slack/app', 'insights'],
    ['slack/app', 'delivery'],
  ])('lets %s import %s', (from, to) => {
    const up = '../'.repeat(from.split('/').length);
    const root = fixture({
      [`${to}/index.ts`]: "export const there = 'there';\n",
      [`${from}/x.ts`]: `import { there } from '${up}${to}/index.js';\nexport const x = there;\n`,
    });
    expect(checkLayers(root)).toEqual([]);
  });

  it('reports an edge of the table that no import uses, and not one that an import uses', () => {
    const table: LayerTable = { core: [], a: ['core'], b: ['a', 'core'], cli: '*' };
    const root = fixture({
      'core/index.ts': "export const core = 'core';\n",
      'a/index.ts': "import { core } from '../core/index.js';\nexport const a = core;\n",
      'b/x.ts': "import { a } from '../a/index.js';\nexport const x = a;\n",
    });
    expect(checkLayers(root, table, { unused: true })).toEqual([
      "the layer table lets b use core, but no import does; drop the edge (LAYERS and the README's table)",
    ]);
    expect(checkLayers(root, table)).toEqual([]);
    expect(unusedEdges(table, new Set(['a core', 'b a', 'b core']))).toEqual([]);
  });

  it('refuses an error code written as a string, and names the member to write', () => {
    const root = fixture({
      'core/index.ts': "export { ErrorCode } from './errorCodes.js';\n",
      'core/errorCodes.ts':
        "export const ErrorCode = {\n  ReportNotFound: 'REPORT_NOT_FOUND',\n  Quiet: 'QUIET',\n} as const;\n",
      'core/x.ts': [
        "import { ErrorCode } from './errorCodes.js';",
        "export const a = new Error('REPORT_NOT_FOUND');",
        'export const b = { code: `QUIET` };',
        'export const c = ErrorCode.Quiet;',
        "export const d = 'REPORT_NOT_FOUND_AT_ALL';",
        '',
      ].join('\n'),
    });
    const where = join('src', 'core', 'x.ts');
    expect(checkLayers(root)).toEqual([
      `${where}:2: the error code 'REPORT_NOT_FOUND' as a string; write ErrorCode.ReportNotFound`,
      `${where}:3: the error code 'QUIET' as a string; write ErrorCode.Quiet`,
    ]);
  });

  it('finds no error-code literal and no unused edge in the repository itself', () => {
    const problems = checkLayers(REPO, LAYERS, { unused: true });
    expect(problems.filter((p) => p.includes('as a string') || p.includes('no import does'))).toEqual([]);
  });

  it('finds no cycle in the repository’s own table', () => {
    expect(Object.keys(LAYERS)).toEqual(
      expect.arrayContaining(['core', 'slackapi', 'insights', 'delivery', 'slack/receiver', 'slack/app', 'cli']),
    );
    expect(cyclesIn(LAYERS)).toEqual([]);
  });

  it('exits 1 with one line per problem on the command line, and 0 on a clean tree', () => {
    // The command line also reports unused edges between the folders a tree has: here slackapi uses core.
    const used = {
      ...INDEXES,
      'slackapi/index.ts': "import { core } from '../core/index.js';\nexport const api = core;\n",
    };
    const bad = fixture({ ...used, 'core/x.ts': "export { api } from '../slackapi/index.js';\n" });
    const failed = spawnSync(process.execPath, [SCRIPT, bad], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(`${join('src', 'core', 'x.ts')}:1: core may not import slackapi`);
    expect(failed.stderr).toContain('checkLayers: 1 problem(s)');
    const clean = spawnSync(process.execPath, [SCRIPT, fixture(used)], { encoding: 'utf8' });
    const unusedEdge = spawnSync(process.execPath, [SCRIPT, fixture({ ...INDEXES })], { encoding: 'utf8' });
    expect(unusedEdge.status).toBe(1);
    expect(unusedEdge.stderr).toContain('the layer table lets slackapi use core, but no import does');
    expect(clean.stderr).toBe('');
    expect(clean.status).toBe(0);
  });
});
