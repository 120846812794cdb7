import { ConfigError } from '../core/index.js';

/** Where reports come from: the embedded sandbox, or a real Reporting Service. */
export type ReportingConfig =
  | { kind: 'sandbox' }
  | { kind: 'remote'; authUrl: string; graphqlUrl: string; clientId: string; clientSecret: string };

export interface SlackConfig {
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl?: string;
}

export interface Config {
  /** Present when Slack variables are set; required by `pivotbot start`. */
  slack?: SlackConfig;
  port: number;
  reporting: ReportingConfig;
  reportsDir: string;
  storePath: string;
  timezone: string;
  admins: readonly string[];
  logLevel: string;
}

export interface LoadConfigOptions {
  /** `pivotbot start` needs Slack credentials; the offline commands (run, query, demo) do not. */
  requireSlack?: boolean;
}

const REPORTING_VARS = [
  'REPORTING_AUTH_URL',
  'REPORTING_GRAPHQL_URL',
  'REPORTING_CLIENT_ID',
  'REPORTING_CLIENT_SECRET',
] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Parses the environment once, at start-up, into a typed configuration. Every problem is
 * collected and thrown as one `ConfigError` naming each variable and what is allowed; secret
 * values are never echoed.
 *
 * @example const config = loadConfig(process.env, { requireSlack: true });
 */
export function loadConfig(env: NodeJS.ProcessEnv, options: LoadConfigOptions = {}): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const port = parsePort(read('PORT'), problems);
  const timezone = read('PIVOTBOT_TIMEZONE') ?? 'UTC';
  if (!isTimeZone(timezone)) {
    problems.push(
      `PIVOTBOT_TIMEZONE: "${timezone}" is not an IANA time zone (for example UTC, Europe/Berlin, America/Sao_Paulo)`,
    );
  }
  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL: "${logLevel}" is not one of ${LOG_LEVELS.join(', ')}`);
  }
  const admins = (read('PIVOTBOT_ADMINS') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  for (const id of admins) {
    if (!/^[UW][A-Z0-9]{2,}$/.test(id)) {
      problems.push(`PIVOTBOT_ADMINS: "${id}" is not a Slack user id (like U012AB3CD); separate ids with commas`);
    }
  }

  const reporting = parseReporting(read, problems);
  const slack = parseSlack(read, problems, options.requireSlack ?? false);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...(slack ? { slack } : {}),
    port,
    reporting,
    reportsDir: read('PIVOTBOT_REPORTS_DIR') ?? 'reports',
    storePath: read('PIVOTBOT_STORE') ?? 'data/pivotbot.json',
    timezone,
    admins,
    logLevel,
  };
}

/** The secret values of a configuration, for the logger to scrub. */
export function configSecrets(config: Config): string[] {
  const secrets: Array<string | undefined> = [
    config.slack?.botToken,
    config.slack?.signingSecret,
    config.slack?.appToken,
    config.reporting.kind === 'remote' ? config.reporting.clientSecret : undefined,
  ];
  return secrets.filter((s): s is string => s !== undefined);
}

function parsePort(raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT: "${raw}" is not a port number (0-65535)`);
    return 3000;
  }
  return port;
}

function parseReporting(read: (name: string) => string | undefined, problems: string[]): ReportingConfig {
  const present = REPORTING_VARS.filter((name) => read(name) !== undefined);
  if (present.length === 0) return { kind: 'sandbox' };
  if (present.length < REPORTING_VARS.length) {
    const missing = REPORTING_VARS.filter((name) => read(name) === undefined);
    problems.push(
      `${missing.join(', ')}: missing. Set all four REPORTING_* variables to use a Reporting Service, or none to use the embedded sandbox (set: ${present.join(', ')})`,
    );
    return { kind: 'sandbox' };
  }
  const authUrl = read('REPORTING_AUTH_URL') as string;
  const graphqlUrl = read('REPORTING_GRAPHQL_URL') as string;
  for (const [name, value] of [
    ['REPORTING_AUTH_URL', authUrl],
    ['REPORTING_GRAPHQL_URL', graphqlUrl],
  ] as const) {
    if (!isHttpUrl(value)) problems.push(`${name}: "${value}" is not an http(s) URL`);
  }
  return {
    kind: 'remote',
    authUrl,
    graphqlUrl,
    clientId: read('REPORTING_CLIENT_ID') as string,
    clientSecret: read('REPORTING_CLIENT_SECRET') as string,
  };
}

function parseSlack(
  read: (name: string) => string | undefined,
  problems: string[],
  required: boolean,
): SlackConfig | undefined {
  const botToken = read('SLACK_BOT_TOKEN');
  const signingSecret = read('SLACK_SIGNING_SECRET');
  const appToken = read('SLACK_APP_TOKEN');
  const apiUrl = read('SLACK_API_URL');

  if (apiUrl !== undefined && !isHttpUrl(apiUrl)) {
    problems.push(`SLACK_API_URL: "${apiUrl}" is not an http(s) URL`);
  }
  if (botToken !== undefined && !botToken.startsWith('xoxb-')) {
    problems.push('SLACK_BOT_TOKEN: must be a bot token starting with "xoxb-" (value hidden)');
  }
  if (appToken !== undefined && !appToken.startsWith('xapp-')) {
    problems.push('SLACK_APP_TOKEN: must be an app-level token starting with "xapp-" (value hidden)');
  }
  if (botToken === undefined) {
    if (required) problems.push('SLACK_BOT_TOKEN: missing. Copy the Bot User OAuth Token (xoxb-…) from your Slack app');
    return undefined;
  }
  if (required && appToken === undefined && signingSecret === undefined) {
    problems.push(
      'SLACK_SIGNING_SECRET: missing. HTTP mode verifies requests with it (Basic Information → Signing Secret); or set SLACK_APP_TOKEN for Socket Mode',
    );
  }
  return {
    botToken,
    ...(signingSecret !== undefined ? { signingSecret } : {}),
    ...(appToken !== undefined ? { appToken } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
  };
}

/** True for an IANA zone id the runtime knows (Intl throws RangeError otherwise). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
