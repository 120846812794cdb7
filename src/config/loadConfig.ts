import { z } from 'zod';
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
  /** `PIVOTBOT_STORE`: the JSON file, or a `postgres://` URL (its password is a secret). */
  storePath: string;
  timezone: string;
  admins: readonly string[];
  logLevel: string;
  /** Slash-command runs allowed to wait for a free slot; one more is told "busy" at once. */
  maxQueued: number;
  /** `PIVOTBOT_LEASE_SECONDS` (PostgreSQL store): how long a replica that stopped answering keeps its async jobs and manual runs. */
  leaseMs: number;
  /**
   * `PIVOTBOT_HEARTBEAT_SECONDS` (PostgreSQL store): how long a scheduled step (a job of the queue)
   * stays with a replica whose heartbeat for it stopped, before the queue hands it to another.
   */
  heartbeatSeconds: number;
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

/** An optional variable whose value, when set, must pass `check`; the message names the variable. */
function optionalVar(check: (value: string) => boolean, message: (value: string) => string) {
  return z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value !== undefined && !check(value)) ctx.addIssue({ code: 'custom', message: message(value) });
    });
}

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The environment as zod sees it: every variable optional text, checked one by one, then together. */
const envSchema = z
  .object({
    PORT: optionalVar(
      (v) => /^\d+$/.test(v) && Number(v) <= 65535,
      (v) => `"${v}" is not a port number (0-65535)`,
    ),
    PIVOTBOT_TIMEZONE: optionalVar(
      isTimeZone,
      (v) => `"${v}" is not an IANA time zone (for example UTC, Europe/Berlin, America/Sao_Paulo)`,
    ),
    LOG_LEVEL: optionalVar(
      (v) => LOG_LEVELS.includes(v),
      (v) => `"${v}" is not one of ${LOG_LEVELS.join(', ')}`,
    ),
    PIVOTBOT_ADMINS: z.string().optional(),
    PIVOTBOT_MAX_QUEUED: optionalVar(
      (v) => /^\d+$/.test(v) && Number(v) <= 100_000,
      (v) => `"${v}" is not a whole number of runs (0-100000)`,
    ),
    PIVOTBOT_LEASE_SECONDS: optionalVar(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 3600,
      (v) => `"${v}" is not a whole number of seconds (1-3600)`,
    ),
    PIVOTBOT_HEARTBEAT_SECONDS: optionalVar(
      (v) => /^\d+$/.test(v) && Number(v) >= 10 && Number(v) <= 3600,
      (v) => `"${v}" is not a whole number of seconds (10-3600)`,
    ),
    PIVOTBOT_REPORTS_DIR: z.string().optional(),
    PIVOTBOT_STORE: optionalVar(
      (v) => storeUrlProblem(v) === undefined,
      (v) => `${storeUrlProblem(v)} (got "${hidePassword(v)}")`,
    ),
    REPORTING_AUTH_URL: optionalVar(isHttpUrl, (v) => `"${v}" is not an http(s) URL`),
    REPORTING_GRAPHQL_URL: optionalVar(isHttpUrl, (v) => `"${v}" is not an http(s) URL`),
    REPORTING_CLIENT_ID: z.string().optional(),
    REPORTING_CLIENT_SECRET: z.string().optional(),
    SLACK_BOT_TOKEN: optionalVar(
      (v) => v.startsWith('xoxb-'),
      () => 'must be a bot token starting with "xoxb-" (value hidden)',
    ),
    SLACK_SIGNING_SECRET: z.string().optional(),
    SLACK_APP_TOKEN: optionalVar(
      (v) => v.startsWith('xapp-'),
      () => 'must be an app-level token starting with "xapp-" (value hidden)',
    ),
    SLACK_API_URL: optionalVar(isHttpUrl, (v) => `"${v}" is not an http(s) URL`),
  })
  .superRefine((env, ctx) => {
    for (const id of splitAdmins(env.PIVOTBOT_ADMINS)) {
      if (!/^[UW][A-Z0-9]{2,}$/.test(id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['PIVOTBOT_ADMINS'],
          message: `"${id}" is not a Slack user id (like U012AB3CD); separate ids with commas`,
        });
      }
    }
    const present = REPORTING_VARS.filter((name) => env[name] !== undefined);
    if (present.length > 0 && present.length < REPORTING_VARS.length) {
      const missing = REPORTING_VARS.filter((name) => env[name] === undefined);
      ctx.addIssue({
        code: 'custom',
        path: [missing.join(', ')],
        message: `missing. Set all four REPORTING_* variables to use a Reporting Service, or none to use the embedded sandbox (set: ${present.join(', ')})`,
      });
    }
  });

type Env = z.infer<typeof envSchema>;

/**
 * Parses the environment once, at start-up, into a typed configuration (validated with zod).
 * Every problem is collected and thrown as one `ConfigError` naming each variable and what is
 * allowed; secret values are never echoed.
 *
 * @example const config = loadConfig(process.env, { requireSlack: true });
 */
export function loadConfig(rawEnv: NodeJS.ProcessEnv, options: LoadConfigOptions = {}): Config {
  const trimmed = Object.fromEntries(
    Object.keys(envSchema.shape).map((name) => [name, blankToUndefined(rawEnv[name])]),
  );
  const parsed = envSchema.safeParse(trimmed);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const env = (parsed.success ? parsed.data : trimmed) as Env;
  const slack = slackConfig(env, options.requireSlack ?? false, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...(slack ? { slack } : {}),
    port: env.PORT === undefined ? 3000 : Number(env.PORT),
    reporting: reportingConfig(env),
    reportsDir: env.PIVOTBOT_REPORTS_DIR ?? 'reports',
    storePath: env.PIVOTBOT_STORE ?? 'data/pivotbot.json',
    timezone: env.PIVOTBOT_TIMEZONE ?? 'UTC',
    admins: splitAdmins(env.PIVOTBOT_ADMINS),
    logLevel: env.LOG_LEVEL ?? 'info',
    maxQueued: env.PIVOTBOT_MAX_QUEUED === undefined ? 100 : Number(env.PIVOTBOT_MAX_QUEUED),
    leaseMs: env.PIVOTBOT_LEASE_SECONDS === undefined ? 30_000 : Number(env.PIVOTBOT_LEASE_SECONDS) * 1000,
    heartbeatSeconds: env.PIVOTBOT_HEARTBEAT_SECONDS === undefined ? 30 : Number(env.PIVOTBOT_HEARTBEAT_SECONDS),
  };
}

/** The secret values of a configuration, for the logger to scrub. */
export function configSecrets(config: Config): string[] {
  const secrets: Array<string | undefined> = [
    config.slack?.botToken,
    config.slack?.signingSecret,
    config.slack?.appToken,
    config.reporting.kind === 'remote' ? config.reporting.clientSecret : undefined,
    storePassword(config.storePath),
  ];
  return secrets.filter((s): s is string => s !== undefined);
}

/** The password of a PostgreSQL `PIVOTBOT_STORE`, if any, so logs can scrub it. */
function storePassword(store: string): string | undefined {
  if (!/^postgres(ql)?:\/\//i.test(store)) return undefined;
  try {
    const password = decodeURIComponent(new URL(store).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}

/**
 * `PIVOTBOT_STORE` is a file path, or a PostgreSQL URL (`postgres://user:password@host:5432/db`).
 * Anything else with a scheme is a mistake worth stopping for rather than a file name.
 */
function storeUrlProblem(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(value)) {
    return 'is a URL but not a PostgreSQL one: use postgres://user:password@host:5432/database, or a file path such as data/pivotbot.json';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL: expected postgres://user:password@host:5432/database';
  }
  if (url.hostname === '') return 'names no host: expected postgres://user:password@host:5432/database';
  if (url.pathname.length <= 1) return 'names no database: expected postgres://user:password@host:5432/database';
  return undefined;
}

/** A store URL with its password replaced by `***`, for messages. */
function hidePassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

function splitAdmins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

function reportingConfig(env: Env): ReportingConfig {
  const { REPORTING_AUTH_URL, REPORTING_GRAPHQL_URL, REPORTING_CLIENT_ID, REPORTING_CLIENT_SECRET } = env;
  if (!REPORTING_AUTH_URL || !REPORTING_GRAPHQL_URL || !REPORTING_CLIENT_ID || !REPORTING_CLIENT_SECRET) {
    return { kind: 'sandbox' };
  }
  return {
    kind: 'remote',
    authUrl: REPORTING_AUTH_URL,
    graphqlUrl: REPORTING_GRAPHQL_URL,
    clientId: REPORTING_CLIENT_ID,
    clientSecret: REPORTING_CLIENT_SECRET,
  };
}

/** Slack settings; `pivotbot start` requires a bot token and, in HTTP mode, the signing secret. */
function slackConfig(env: Env, required: boolean, problems: string[]): SlackConfig | undefined {
  const {
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_APP_TOKEN: appToken,
    SLACK_API_URL: apiUrl,
  } = env;
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
