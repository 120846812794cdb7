import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/core/index.js';

describe('loadEnvFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-envfile-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('adds the variables of .env the environment does not set; the environment wins', async () => {
    const file = join(dir, '.env');
    await writeFile(
      file,
      [
        '# pivotbot configuration',
        'SLACK_BOT_TOKEN=xoxb-from-dotenv',
        'PIVOTBOT_TIMEZONE="Europe/Paris"',
        'LOG_LEVEL=debug # a comment',
        'PORT=4000',
        '',
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = { PORT: '3000' };
    expect(loadEnvFile(env, file)?.sort()).toEqual(['LOG_LEVEL', 'PIVOTBOT_TIMEZONE', 'SLACK_BOT_TOKEN']);
    expect(env).toEqual({
      PORT: '3000',
      SLACK_BOT_TOKEN: 'xoxb-from-dotenv',
      PIVOTBOT_TIMEZONE: 'Europe/Paris',
      LOG_LEVEL: 'debug',
    });
  });

  it('changes nothing when there is no .env', () => {
    const env: NodeJS.ProcessEnv = { PORT: '3000' };
    expect(loadEnvFile(env, join(dir, '.env'))).toBeUndefined();
    expect(env).toEqual({ PORT: '3000' });
  });

  describe('PIVOTBOT_ENV_FILE', () => {
    const cwd = process.cwd();
    beforeEach(async () => {
      await writeFile(join(dir, '.env'), 'SLACK_BOT_TOKEN=xoxb-from-dotenv\n');
      await writeFile(join(dir, 'other.env'), 'PIVOTBOT_TIMEZONE=Europe/Paris\n');
      process.chdir(dir);
    });
    afterEach(() => {
      process.chdir(cwd);
    });

    it('reads .env of the working folder when unset or empty', () => {
      for (const value of [undefined, '', '  ']) {
        const env: NodeJS.ProcessEnv = value === undefined ? {} : { PIVOTBOT_ENV_FILE: value };
        expect(loadEnvFile(env)).toEqual(['SLACK_BOT_TOKEN']);
        expect(env.SLACK_BOT_TOKEN).toBe('xoxb-from-dotenv');
      }
    });

    it('"none" reads no file, though .env is there', () => {
      const env: NodeJS.ProcessEnv = { PIVOTBOT_ENV_FILE: 'none' };
      expect(loadEnvFile(env)).toBeUndefined();
      expect(env).toEqual({ PIVOTBOT_ENV_FILE: 'none' });
    });

    it('reads the file it names instead of .env', () => {
      const env: NodeJS.ProcessEnv = { PIVOTBOT_ENV_FILE: 'other.env' };
      expect(loadEnvFile(env)).toEqual(['PIVOTBOT_TIMEZONE']);
      expect(env).toEqual({ PIVOTBOT_ENV_FILE: 'other.env', PIVOTBOT_TIMEZONE: 'Europe/Paris' });
    });

    it('refuses a file it names that does not exist, saying how to read none', () => {
      const env: NodeJS.ProcessEnv = { PIVOTBOT_ENV_FILE: 'missing.env' };
      expect(() => loadEnvFile(env)).toThrow(ConfigError);
      expect(() => loadEnvFile(env)).toThrow(
        'Invalid configuration: PIVOTBOT_ENV_FILE: "missing.env": no such file (name an existing env file, or "none" to read none)',
      );
      expect(env).toEqual({ PIVOTBOT_ENV_FILE: 'missing.env' });
    });
  });
});
