import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLayers, cyclesIn, LAYERS, type LayerTable } from '../../../scripts/checkLayers.mjs';

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

  it('finds no cycle in the repository’s own table', () => {
    expect(Object.keys(LAYERS)).toEqual(expect.arrayContaining(['core', 'delivery', 'slackapi', 'slack/app', 'cli']));
    expect(cyclesIn(LAYERS)).toEqual([]);
  });

  it('exits 1 with one line per problem on the command line, and 0 on a clean tree', () => {
    const bad = fixture({ ...INDEXES, 'core/x.ts': "export { api } from '../slackapi/index.js';\n" });
    const failed = spawnSync(process.execPath, [SCRIPT, bad], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(`${join('src', 'core', 'x.ts')}:1: core may not import slackapi`);
    expect(failed.stderr).toContain('checkLayers: 1 problem(s)');
    const clean = spawnSync(process.execPath, [SCRIPT, fixture({ ...INDEXES })], { encoding: 'utf8' });
    expect(clean.stderr).toBe('');
    expect(clean.status).toBe(0);
  });
});
