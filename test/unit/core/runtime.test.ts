/**
 * The suite runs on a Node that `engines` names: through `npm test` that is the Node installed by
 * the development dependency `node` (npm puts `node_modules/.bin` first on the path of scripts),
 * whatever Node the machine has. The version is printed in the test output.
 */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

/** Whether `version` (x.y.z) satisfies `range`, in the forms `engines` uses: `^x`, `^x.y.z`, `>=x`, joined by `||`. */
function satisfies(version: string, range: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const at = (v: string) => v.split('.').map(Number).concat([0, 0, 0]).slice(0, 3) as [number, number, number];
  const atLeast = ([a, b, c]: [number, number, number]) =>
    major > a || (major === a && (minor > b || (minor === b && patch >= c)));
  return range.split('||').some((part) => {
    const p = part.trim();
    if (p.startsWith('^')) {
      const base = at(p.slice(1));
      return major === base[0] && atLeast(base);
    }
    if (p.startsWith('>=')) return atLeast(at(p.slice(2)));
    throw new Error(`engines range part "${p}" is not one this test reads`);
  });
}

describe('the Node the tests run on', () => {
  it('is one that engines names (the npm-installed one under npm test)', () => {
    console.log(`tests run on Node ${process.version} (${process.execPath})`);
    expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it('reads the engines forms right', () => {
    const range = '^22.12.0 || ^24 || >=26';
    expect(['22.12.0', '22.20.1', '24.0.0', '24.21.0', '26.0.0', '27.1.0'].map((v) => satisfies(v, range))).toEqual(
      Array(6).fill(true),
    );
    expect(['20.20.2', '22.11.9', '23.5.0', '25.9.0', '21.0.0'].map((v) => satisfies(v, range))).toEqual(
      Array(5).fill(false),
    );
    // The pinned development Node is a supported one.
    expect(satisfies(pkg.devDependencies.node as string, pkg.engines.node)).toBe(true);
  });
});
