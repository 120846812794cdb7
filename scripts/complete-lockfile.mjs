#!/usr/bin/env node
/**
 * Adds the platform-specific optional packages that npm could not record in package-lock.json.
 *
 * Why: packages such as @biomejs/biome, @swc/core, @duckdb/node-api and unrs-resolver depend on
 * one optional binary package per platform. The registry this project is built against answers
 * 404 for the platforms it does not serve (macOS, Windows, Android, musl…), so npm leaves those
 * entries out of the lock file, and `npm ci` then refuses the lock ("Missing: … from lock file").
 * An entry with the platform constraints (os, cpu, libc) that the package name encodes lets
 * `npm ci` validate the lock and skip those packages on this platform, as npm would with the full
 * registry. Run after any `npm install` that rewrites the lock: `node scripts/complete-lockfile.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['android', 'darwin', 'linux', 'win32', 'freebsd', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPU = { arm64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', loong64: 'loong64', riscv64: 'riscv64' };

/** `@swc/core-linux-arm-gnueabihf` → { os: ['linux'], cpu: ['arm'], libc: ['glibc'] }. */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.map((t) => CPU[t]).find(Boolean);
  if (!os || !cpu) return undefined;
  const tail = tokens.slice(tokens.indexOf(os) + 2).join('-');
  const libc = /musl/.test(tail) ? ['musl'] : /gnu/.test(tail) ? ['glibc'] : undefined;
  return { os: [os], cpu: [cpu], ...(libc && os === 'linux' ? { libc } : {}) };
}

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const added = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    packages[`node_modules/${name}`] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added.push(`${name}@${spec}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length === 0 ? 'package-lock.json is complete' : `added ${added.length} platform entries:\n  ${added.join('\n  ')}`);
