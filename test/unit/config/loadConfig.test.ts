import { configSecrets, loadConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/core/index.js';

const remote = {
  REPORTING_AUTH_URL: 'https://auth.example.test/v1/oauth/token',
  REPORTING_GRAPHQL_URL: 'https://reporting.example.test/v1/graphql',
  REPORTING_CLIENT_ID: 'id-1',
  REPORTING_CLIENT_SECRET: 'super-secret-value',
};

function problemsOf(env: NodeJS.ProcessEnv, requireSlack = false): readonly string[] {
  try {
    loadConfig(env, { requireSlack });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the embedded sandbox and documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.reporting).toEqual({ kind: 'sandbox' });
    expect(config.port).toBe(3000);
    expect(config.reportsDir).toBe('reports');
    expect(config.storePath).toBe('data/pivotbot.json');
    expect(config.timezone).toBe('UTC');
    expect(config.admins).toEqual([]);
    expect(config.maxQueued).toBe(100);
    expect(config.slack).toBeUndefined();
    expect(loadConfig({ PIVOTBOT_MAX_QUEUED: '0' }).maxQueued).toBe(0);
    expect(config.leaseMs).toBe(30_000);
    expect(loadConfig({ PIVOTBOT_LEASE_SECONDS: '2' }).leaseMs).toBe(2_000);
    expect(config.heartbeatSeconds).toBe(30);
    expect(loadConfig({ PIVOTBOT_HEARTBEAT_SECONDS: '12' }).heartbeatSeconds).toBe(12);
  });

  it('uses a remote Reporting Service when all four REPORTING_* variables are set', () => {
    const config = loadConfig(remote);
    expect(config.reporting).toEqual({
      kind: 'remote',
      ...{
        authUrl: remote.REPORTING_AUTH_URL,
        graphqlUrl: remote.REPORTING_GRAPHQL_URL,
        clientId: 'id-1',
        clientSecret: 'super-secret-value',
      },
    });
  });

  it('names the missing REPORTING_* variables when only some are set, without echoing the secret', () => {
    const problems = problemsOf({ REPORTING_CLIENT_ID: 'id-1', REPORTING_CLIENT_SECRET: 'super-secret-value' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('REPORTING_AUTH_URL, REPORTING_GRAPHQL_URL: missing');
    expect(problems[0]).not.toContain('super-secret-value');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: "abc" is not a port number'],
    [{ PORT: '70000' }, 'PORT: "70000" is not a port number'],
    [{ PIVOTBOT_TIMEZONE: 'Mars/Olympus' }, 'PIVOTBOT_TIMEZONE: "Mars/Olympus" is not an IANA time zone'],
    [{ PIVOTBOT_ADMINS: 'U123ABC, bob' }, 'PIVOTBOT_ADMINS: "bob" is not a Slack user id'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: "loud" is not one of'],
    [{ PIVOTBOT_MAX_QUEUED: '-1' }, 'PIVOTBOT_MAX_QUEUED: "-1" is not a whole number of runs'],
    [{ PIVOTBOT_LEASE_SECONDS: '0' }, 'PIVOTBOT_LEASE_SECONDS: "0" is not a whole number of seconds (1-3600)'],
    // pg-boss's shortest job heartbeat is 10 s.
    [{ PIVOTBOT_HEARTBEAT_SECONDS: '5' }, 'PIVOTBOT_HEARTBEAT_SECONDS: "5" is not a whole number of seconds (10-3600)'],
    [
      { ...remote, REPORTING_GRAPHQL_URL: 'reporting.example' },
      'REPORTING_GRAPHQL_URL: "reporting.example" is not an http(s) URL',
    ],
    [{ SLACK_API_URL: 'nope' }, 'SLACK_API_URL: "nope" is not an http(s) URL'],
  ])('rejects %j with a message naming the variable', (env, expected) => {
    expect(problemsOf(env).join('\n')).toContain(expected);
  });

  it('collects every problem into one error', () => {
    const problems = problemsOf({ PORT: 'x', PIVOTBOT_TIMEZONE: 'Nowhere/Land' });
    expect(problems).toHaveLength(2);
  });

  it('requires Slack credentials only when asked, naming the variable', () => {
    expect(() => loadConfig({})).not.toThrow();
    expect(problemsOf({}, true).join('\n')).toContain('SLACK_BOT_TOKEN: missing');
    expect(problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1' }, true).join('\n')).toContain('SLACK_SIGNING_SECRET: missing');
    const socket = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }, { requireSlack: true });
    expect(socket.slack).toEqual({ botToken: 'xoxb-1', appToken: 'xapp-1' });
  });

  it('never puts a malformed token value in the message', () => {
    const problems = problemsOf({ SLACK_BOT_TOKEN: 'xoxp-personal-token-value', SLACK_APP_TOKEN: 'bad-app-token' });
    const text = problems.join('\n');
    expect(text).toContain('SLACK_BOT_TOKEN');
    expect(text).toContain('SLACK_APP_TOKEN');
    expect(text).not.toContain('xoxp-personal-token-value');
    expect(text).not.toContain('bad-app-token');
  });

  it('lists every secret value for the logger to scrub', () => {
    const config = loadConfig({ ...remote, SLACK_BOT_TOKEN: 'xoxb-abc', SLACK_SIGNING_SECRET: 'sign-me' });
    expect(configSecrets(config).sort()).toEqual(['sign-me', 'super-secret-value', 'xoxb-abc']);
  });
});
