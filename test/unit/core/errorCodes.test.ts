import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, isErrorCode } from '../../../src/core/index.js';

const SRC = join(process.cwd(), 'src');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat().filter((f) => f.endsWith('.ts'));
}

/**
 * The codes src gives, as text: a `code: 'X'` in an object (a stored error; a country's two-letter
 * code is not one), the first argument of the base classes' constructors, and any code put
 * together from a template (which is how `SLACK_<anything>` used to be minted).
 */
const GIVEN = [
  /\bcode:\s*'([A-Z][A-Z0-9_]{3,})'/g,
  /\b(?:super|new\s+(?:PivotbotError|UserInputError))\(\s*'([A-Z][A-Z0-9_]*)'/g,
  /\b(?:super|new\s+(?:PivotbotError|UserInputError))\(\s*`([A-Z][A-Z0-9_]*)\$\{/g,
];

describe('ErrorCode, the one list of codes', () => {
  it('names each code once, in SCREAMING_SNAKE_CASE', () => {
    const values = Object.values(ErrorCode);
    expect(new Set(values).size).toBe(values.length);
    for (const code of values) expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
  });

  it('keeps the code strings that run records and docs already hold', () => {
    expect(ErrorCode).toMatchObject({
      Internal: 'INTERNAL',
      RunInterrupted: 'RUN_INTERRUPTED',
      DataWaitOver: 'DATA_WAIT_OVER',
      StoreLocked: 'STORE_LOCKED',
      StoreUnavailable: 'STORE_UNAVAILABLE',
      ReportNotScheduled: 'REPORT_NOT_SCHEDULED',
      MetricNotExplainable: 'METRIC_NOT_EXPLAINABLE',
      SlackNotInChannel: 'SLACK_NOT_IN_CHANNEL',
      SlackPacingAborted: 'SLACK_PACING_ABORTED',
    });
  });

  it('gives every code in src as an ErrorCode member, never as a string or a template', async () => {
    const literal: Array<{ file: string; code: string }> = [];
    const members: Array<{ file: string; member: string }> = [];
    for (const file of await sourceFiles(SRC)) {
      const where = file.slice(SRC.length + 1);
      // Doc comments may show a code's value (`code: 'QUERY_INVALID'` in an example); code may not.
      const text = (await readFile(file, 'utf8'))
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/)/.test(line))
        .join('\n');
      // Zod's issue codes (`code: 'custom'`) are lower case and not ours: the patterns skip them.
      for (const pattern of GIVEN)
        for (const match of text.matchAll(pattern)) literal.push({ file: where, code: match[1] as string });
      for (const match of text.matchAll(/\bErrorCode\.([A-Za-z0-9]+)/g))
        members.push({ file: where, member: match[1] as string });
    }
    expect(literal).toEqual([]);
    // The scan finds what it looks for (a pattern that matched nothing would pass vacuously).
    expect(members.map((m) => m.member)).toEqual(
      expect.arrayContaining(['RunInterrupted', 'QueueFull', 'StoreLocked']),
    );
    expect(members.filter((m) => !Object.hasOwn(ErrorCode, m.member))).toEqual([]);
    for (const m of members) expect(isErrorCode(ErrorCode[m.member as keyof typeof ErrorCode])).toBe(true);
  });

  it('tells its codes from anything else', () => {
    expect(isErrorCode('STORE_LOCKED')).toBe(true);
    expect(isErrorCode('ENOENT')).toBe(false);
    expect(isErrorCode('23505')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});
