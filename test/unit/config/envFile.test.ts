import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from '../../../src/config/index.js';

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
});
