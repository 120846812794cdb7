import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under src/explain/, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('src/explain error codes', () => {
  it('passes ErrorCode members, never a string literal, to an error', () => {
    const literal = /(?:Error\(|super\()\s*'[A-Z][A-Z0-9_]+'/;
    const offenders = sources('src/explain').filter((file) => literal.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
