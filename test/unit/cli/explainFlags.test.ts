/** `pivotbot explain --leaves`: a bad `--counts` or `--amounts` is the flag's mistake, with its own code. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { measureParts } from '../../../src/cli/commands/explain.js';
import { main } from '../../../src/cli/main.js';
import { ErrorCode, UserInputError } from '../../../src/core/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'explain-flags-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--counts and --amounts', () => {
  it('reads num, den and num,den', () => {
    expect(measureParts('--counts', 'num')).toEqual(['num']);
    expect(measureParts('--counts', ' num , den ')).toEqual(['num', 'den']);
  });

  it('refuses a part that is not num or den with CLI_EXPLAIN_PARTS, naming the flag, the word and what is allowed', () => {
    const refused = (() => {
      try {
        measureParts('--counts', 'installs');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(UserInputError);
    expect((refused as UserInputError).code).toBe(ErrorCode.CliExplainParts);
    expect((refused as UserInputError).code).not.toBe(ErrorCode.LeavesCsvInvalid);
    expect((refused as Error).message).toBe(
      'pivotbot explain: --counts "installs" names no measure part ("installs" is not one): give num, den or num,den — num is an additive table\'s value or a ratio\'s numerator (current_num, baseline_num), den a ratio\'s denominator.',
    );
    expect(() => measureParts('--amounts', ',')).toThrow('pivotbot explain: --amounts "," names no measure part: give');
  });

  it('prints that one line and exits 1 from the command, the file being fine', async () => {
    const file = join(dir, 'leaves.csv');
    await writeFile(file, 'countryCode,current,baseline\nBR,10,20\nUS,30,20\n');
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['node', 'pivotbot', 'explain', '--leaves', file, '--counts', 'installs'], {
      out: (s) => void out.push(s),
      err: (s) => void err.push(s),
      env: {},
    });
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err.join('')).toMatch(/^pivotbot explain: --counts "installs" names no measure part/);
  });
});
