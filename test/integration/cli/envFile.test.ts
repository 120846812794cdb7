/**
 * `.env` is read (issue 35, item 5): `.env.example` tells a newcomer to copy it to `.env`, and the
 * built CLI reads that file from its working folder before the configuration is parsed, the
 * environment winning over the file; `PIVOTBOT_ENV_FILE=none` (what the tests' own bots use) reads none.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '../../../bin/pivotbot.js');

describe('pivotbot start with a .env in its working folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-dotenv-'));
    await writeFile(
      join(dir, '.env'),
      [
        '# copied from .env.example',
        'SLACK_BOT_TOKEN=xoxb-from-dotenv',
        'PIVOTBOT_TIMEZONE=Mars/Olympus_Mons',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `pivotbot start` in the folder; resolves to its exit code and stderr (it stops on its configuration). */
  const start = (env: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'start'], {
        cwd: dir,
        env: { PATH: process.env.PATH, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
      });
      child.once('close', (code) => done({ code, stderr }));
    });

  it('reads its values: the token counts as set, the time zone is checked', async () => {
    const { code, stderr } = await start({});
    expect(code).toBe(1);
    expect(stderr).not.toContain('SLACK_BOT_TOKEN');
    expect(stderr).toContain('PIVOTBOT_TIMEZONE');
    expect(stderr).not.toContain('xoxb-from-dotenv');
  });

  it('lets the environment win over the file', async () => {
    const { code, stderr } = await start({ PIVOTBOT_TIMEZONE: 'UTC' });
    expect(code).toBe(1);
    expect(stderr).not.toContain('PIVOTBOT_TIMEZONE');
    expect(stderr).not.toContain('SLACK_BOT_TOKEN');
  });

  it('reads no file with PIVOTBOT_ENV_FILE=none: the token is missing again', async () => {
    const { code, stderr } = await start({ PIVOTBOT_ENV_FILE: 'none' });
    expect(code).toBe(1);
    expect(stderr).toContain('SLACK_BOT_TOKEN');
    expect(stderr).not.toContain('PIVOTBOT_TIMEZONE');
  });
});
