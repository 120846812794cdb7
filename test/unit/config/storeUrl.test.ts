import { configSecrets, loadConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/core/index.js';

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('PIVOTBOT_STORE as a PostgreSQL URL', () => {
  it.each([
    'postgres://bot:pw@db.internal:5432/pivotbot',
    'postgresql://bot@localhost/pivotbot?sslmode=require',
    'data/pivotbot.json',
    '/var/lib/pivotbot/state.json',
  ])('accepts %s', (value) => {
    expect(loadConfig({ PIVOTBOT_STORE: value }).storePath).toBe(value);
  });

  it.each([
    ['mysql://bot:hunter2@db/pivotbot', /not a PostgreSQL one/],
    ['postgres://bot:hunter2@db:5432/', /names no database/],
    ['postgres://bot:hunter2@:5432/pivotbot', /not a valid URL|names no host/],
  ])('refuses %s, naming the variable without the password', (value, why) => {
    const problems = problemsOf({ PIVOTBOT_STORE: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PIVOTBOT_STORE: /);
    expect(problems[0]).toMatch(why);
    expect(problems[0]).not.toContain('hunter2');
    expect(problems[0]).toContain('***');
  });

  it('counts the URL password among the secrets the logger scrubs', () => {
    const config = loadConfig({ PIVOTBOT_STORE: 'postgres://bot:p%40ss-w0rd@db/pivotbot' });
    expect(configSecrets(config)).toContain('p@ss-w0rd');
    expect(configSecrets(loadConfig({}))).toEqual([]);
  });
});
