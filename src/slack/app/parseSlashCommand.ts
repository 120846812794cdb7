import { didYouMean, ErrorCode, suggest, UserInputError } from '../../core/index.js';
import { whyQueryText } from '../../query/index.js';
import { findDimension, findMetric } from '../../reporting/index.js';
import { HELP_TOPICS, type HelpTopic } from './screens/helpTopicMessage.js';

/** A `/pivot` subcommand that is not a query: the management verbs of DESIGN.md. */
export type SlashCommand =
  /** Nothing, or `new`: the query-builder modal. */
  | { kind: 'new' }
  /** `help`, or `help metrics|dimensions|ranges [page]`. */
  | { kind: 'help'; topic?: HelpTopic; page?: number }
  | { kind: 'list' }
  | { kind: 'show'; report: string }
  | { kind: 'status'; jobId: string }
  | { kind: 'subscribe'; report: string; channel?: ChannelRef; schedule?: ScheduleOverride; timezone?: string }
  | { kind: 'schedule' }
  | { kind: 'history'; report: string }
  | { kind: 'unsubscribe'; report: string; channel?: ChannelRef }
  | { kind: 'alerts' }
  /** `backtest <report> [rule]`: when the report's rules (or one) would have fired over the last 30 days. */
  | { kind: 'backtest'; report: string; rule?: string }
  | { kind: 'unwatch'; name: string }
  /** `why <query>`: why the query's metrics moved against its comparison (previous period by default). */
  | { kind: 'why'; text: string }
  /** Anything else goes to the query language: `run …`, `postbacks …`, or an ad-hoc query. */
  | { kind: 'query'; text: string };

/** A channel as Slack escapes it (`<#C123|name>`) or as typed (`#name`). */
export interface ChannelRef {
  id?: string;
  name?: string;
}

export type ScheduleOverride = { at: string } | { cron: string };

const VERBS = [
  'help',
  'new',
  'list',
  'show',
  'status',
  'subscribe',
  'unsubscribe',
  'schedule',
  'history',
  'alerts',
  'backtest',
  'unwatch',
  'run',
  'postbacks',
  'why',
];
const QUERY_START = /^[a-z_][a-z0-9_]*(\(|,|\s|$)/i;

/**
 * Splits `/pivot` text into a management command or a query for the query language.
 *
 * @example parseSlashCommand('subscribe daily-kpi <#C1|growth> at 09:00')
 * // { kind: 'subscribe', report: 'daily-kpi', channel: { id: 'C1', name: 'growth' }, schedule: { at: '09:00' } }
 */
export function parseSlashCommand(raw: string): SlashCommand {
  const text = raw.trim();
  if (text === '' || /^new$/i.test(text)) return { kind: 'new' };
  if (/^(help|\?|-h|--help)$/i.test(text)) return { kind: 'help' };
  if (/^help\s/i.test(text)) return parseHelp(text.split(/\s+/).slice(1));
  const [first = '', ...rest] = text.split(/\s+/);
  const verb = first.toLowerCase();
  // "list campaigns by spend", "status by country", "show spend by country": `list` takes nothing,
  // and a job id and a report name are one word, so more words make a question for the query language.
  if ((verb === 'list' && rest.length > 0) || ((verb === 'status' || verb === 'show') && rest.length > 1))
    return { kind: 'query', text };
  switch (verb) {
    case 'list':
      return { kind: 'list' };
    case 'alerts':
      return { kind: 'alerts' };
    case 'backtest': {
      const report = requireWord(rest[0], 'backtest <report> [rule]', 'the report to backtest');
      return { kind: 'backtest', report, ...(rest[1] ? { rule: rest[1] } : {}) };
    }
    case 'unwatch':
      return { kind: 'unwatch', name: requireWord(rest[0], 'unwatch <name>', 'the watch').replace(/^watch-/, '') };
    case 'why':
      // "why is cpi up in US yesterday?": the words around the query say nothing about it.
      return {
        kind: 'why',
        text: requireWord(whyQueryText(rest.join(' ')) || undefined, 'why <query>', 'the query to explain'),
      };
    case 'schedule':
    case 'schedules':
      if (rest.length === 0) return { kind: 'schedule' };
      break;
    case 'history':
      return { kind: 'history', report: requireWord(rest[0], 'history <report>', 'the report') };
    case 'show':
      // "show me cpi by country" is a question for the query language, not a report named "me".
      if (rest[0]?.toLowerCase() === 'me') return { kind: 'query', text };
      return { kind: 'show', report: requireWord(rest[0], 'show <report>', 'the report to show') };
    case 'status':
      return { kind: 'status', jobId: requireWord(rest[0], 'status <job id>', 'the job id') };
    case 'subscribe':
      return parseSubscribe(rest);
    case 'unsubscribe': {
      const report = requireWord(rest[0], 'unsubscribe <report> [#channel]', 'the report');
      const channel = rest[1] ? parseChannel(rest[1]) : undefined;
      return { kind: 'unsubscribe', report, ...(channel ? { channel } : {}) };
    }
    default:
      break;
  }
  // A lone misspelt verb ("lsit") reads better as a suggestion than as a query error; a lone
  // metric or dimension ("events") is a query, however close it is to a verb.
  const isCatalogName = findMetric(first) !== undefined || findDimension(first) !== undefined;
  if (rest.length === 0 && !isCatalogName && QUERY_START.test(text)) {
    const near = suggest(verb, VERBS).filter((v) => v !== verb);
    if (near.length > 0 && verb.length >= 3) {
      throw new UserInputError(
        ErrorCode.UnknownSubcommand,
        `Unknown command "${first}".${didYouMean(near)} Try \`/pivot help\`.`,
        {
          suggestions: near,
        },
      );
    }
  }
  return { kind: 'query', text };
}

/** `help metrics 2`: a topic (singular or plural) and an optional page. */
function parseHelp(words: readonly string[]): SlashCommand {
  const [word = '', pageText] = words;
  const topic = HELP_TOPICS.find((t) => t === word.toLowerCase() || t === `${word.toLowerCase()}s`);
  if (!topic || words.length > 2 || (pageText !== undefined && !/^[1-9]\d{0,2}$/.test(pageText))) {
    const near = suggest(word, HELP_TOPICS);
    throw new UserInputError(
      ErrorCode.UnknownHelpTopic,
      `Help topics are ${HELP_TOPICS.join(', ')}, with an optional page: /pivot help metrics 2.${didYouMean(near)}`,
      { suggestions: near },
    );
  }
  return { kind: 'help', topic, ...(pageText !== undefined ? { page: Number(pageText) } : {}) };
}

function parseSubscribe(words: readonly string[]): SlashCommand {
  const usage = 'subscribe <report> [#channel] [at HH:MM | cron "<expression>"] [tz <Zone>]';
  const report = requireWord(words[0], usage, 'the report');
  let i = 1;
  let channel: ChannelRef | undefined;
  if (words[i] && (words[i]?.startsWith('<#') || words[i]?.startsWith('#'))) {
    channel = parseChannel(words[i] as string);
    i++;
  }
  let schedule: ScheduleOverride | undefined;
  let timezone: string | undefined;
  while (i < words.length) {
    const keyword = words[i]?.toLowerCase();
    if (keyword === 'at' && !schedule) {
      const time = words[i + 1] ?? '';
      const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(time);
      if (!match) {
        throw new UserInputError(
          ErrorCode.BadSchedule,
          `"at ${time}" is not a time of day; write it as HH:MM, e.g. \`at 09:00\`. Usage: /pivot ${usage}`,
        );
      }
      schedule = { at: `${match[1]?.padStart(2, '0')}:${match[2]}` };
      i += 2;
    } else if (keyword === 'cron' && !schedule) {
      // The expression runs to `tz` or the end; quotes around it are optional.
      const end = words.findIndex((w, k) => k > i && w.toLowerCase() === 'tz');
      const stop = end === -1 ? words.length : end;
      const expression = words
        .slice(i + 1, stop)
        .join(' ')
        .replace(/^["“”']|["“”']$/g, '')
        .trim();
      const fields = expression.split(/\s+/);
      if (fields.length !== 5 || !fields.every((f) => /^[\d*/,\-A-Za-z?]+$/.test(f))) {
        throw new UserInputError(
          ErrorCode.BadSchedule,
          `"${expression}" is not a five-field cron expression (minute hour day month weekday), e.g. \`cron "0 9 * * 1-5"\`.`,
        );
      }
      schedule = { cron: expression };
      i = stop;
    } else if (keyword === 'tz' && timezone === undefined) {
      timezone = requireWord(words[i + 1], usage, 'the time zone (like Europe/Berlin)');
      i += 2;
    } else {
      throw new UserInputError(ErrorCode.BadSchedule, `Unexpected "${words[i]}". Usage: /pivot ${usage}`);
    }
  }
  return {
    kind: 'subscribe',
    report,
    ...(channel ? { channel } : {}),
    ...(schedule ? { schedule } : {}),
    ...(timezone ? { timezone } : {}),
  };
}

/** Reads `<#C123|name>`, `<#C123>` or `#name`. */
export function parseChannel(word: string): ChannelRef {
  const escaped = /^<#([A-Z0-9]+)(?:\|([^>]*))?>$/.exec(word);
  if (escaped) return { id: escaped[1] as string, ...(escaped[2] ? { name: escaped[2] } : {}) };
  if (/^#[a-z0-9][a-z0-9._-]*$/i.test(word)) return { name: word.slice(1).toLowerCase() };
  throw new UserInputError(ErrorCode.BadChannel, `"${word}" is not a channel; mention it like #growth.`);
}

function requireWord(word: string | undefined, usage: string, what: string): string {
  if (word === undefined || word === '') {
    throw new UserInputError(ErrorCode.MissingArgument, `Say which ${what.replace(/^the /, '')}: /pivot ${usage}`);
  }
  return word;
}
