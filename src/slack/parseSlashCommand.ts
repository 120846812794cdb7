import { didYouMean, suggest, UserInputError } from '../core/index.js';
import { findDimension, findMetric } from '../reporting/index.js';

/** A `/pivot` subcommand that is not a query: the management verbs of DESIGN.md. */
export type SlashCommand =
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'show'; report: string }
  | { kind: 'status'; jobId: string }
  | { kind: 'subscribe'; report: string; channel?: ChannelRef; schedule?: ScheduleOverride }
  | { kind: 'unsubscribe'; report: string; channel?: ChannelRef }
  | { kind: 'alerts' }
  /** Anything else goes to the query language: `run …`, `postbacks …`, or an ad-hoc query. */
  | { kind: 'query'; text: string };

/** A channel as Slack escapes it (`<#C123|name>`) or as typed (`#name`). */
export interface ChannelRef {
  id?: string;
  name?: string;
}

export type ScheduleOverride = { at: string } | { cron: string };

const VERBS = ['help', 'list', 'show', 'status', 'subscribe', 'unsubscribe', 'alerts', 'run', 'postbacks'];
const QUERY_START = /^[a-z_][a-z0-9_]*(\(|,|\s|$)/i;

/**
 * Splits `/pivot` text into a management command or a query for the query language.
 *
 * @example parseSlashCommand('subscribe daily-kpi <#C1|growth> at 09:00')
 * // { kind: 'subscribe', report: 'daily-kpi', channel: { id: 'C1', name: 'growth' }, schedule: { at: '09:00' } }
 */
export function parseSlashCommand(raw: string): SlashCommand {
  const text = raw.trim();
  if (text === '' || /^(help|\?|-h|--help)$/i.test(text)) return { kind: 'help' };
  const [first = '', ...rest] = text.split(/\s+/);
  const verb = first.toLowerCase();
  switch (verb) {
    case 'list':
      return { kind: 'list' };
    case 'alerts':
      return { kind: 'alerts' };
    case 'show':
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
        'UNKNOWN_SUBCOMMAND',
        `Unknown command "${first}".${didYouMean(near)} Try \`/pivot help\`.`,
        {
          suggestions: near,
        },
      );
    }
  }
  return { kind: 'query', text };
}

function parseSubscribe(words: readonly string[]): SlashCommand {
  const usage = 'subscribe <report> [#channel] [at HH:MM | cron "<expression>"]';
  const report = requireWord(words[0], usage, 'the report');
  let i = 1;
  let channel: ChannelRef | undefined;
  if (words[i] && (words[i]?.startsWith('<#') || words[i]?.startsWith('#'))) {
    channel = parseChannel(words[i] as string);
    i++;
  }
  let schedule: ScheduleOverride | undefined;
  const keyword = words[i]?.toLowerCase();
  if (keyword === 'at') {
    const time = words[i + 1] ?? '';
    const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(time);
    if (!match) {
      throw new UserInputError(
        'BAD_SCHEDULE',
        `"at ${time}" is not a time of day; write it as HH:MM, e.g. \`at 09:00\`. Usage: /pivot ${usage}`,
      );
    }
    schedule = { at: `${match[1]?.padStart(2, '0')}:${match[2]}` };
    i += 2;
  } else if (keyword === 'cron') {
    const expression = words
      .slice(i + 1)
      .join(' ')
      .replace(/^["“”']|["“”']$/g, '')
      .trim();
    const fields = expression.split(/\s+/);
    if (fields.length !== 5 || !fields.every((f) => /^[\d*/,\-A-Za-z?]+$/.test(f))) {
      throw new UserInputError(
        'BAD_SCHEDULE',
        `"${expression}" is not a five-field cron expression (minute hour day month weekday), e.g. \`cron "0 9 * * 1-5"\`.`,
      );
    }
    schedule = { cron: expression };
    i = words.length;
  } else if (keyword !== undefined) {
    throw new UserInputError('BAD_SCHEDULE', `Unexpected "${words[i]}". Usage: /pivot ${usage}`);
  }
  return { kind: 'subscribe', report, ...(channel ? { channel } : {}), ...(schedule ? { schedule } : {}) };
}

/** Reads `<#C123|name>`, `<#C123>` or `#name`. */
export function parseChannel(word: string): ChannelRef {
  const escaped = /^<#([A-Z0-9]+)(?:\|([^>]*))?>$/.exec(word);
  if (escaped) return { id: escaped[1] as string, ...(escaped[2] ? { name: escaped[2] } : {}) };
  if (/^#[a-z0-9][a-z0-9._-]*$/i.test(word)) return { name: word.slice(1).toLowerCase() };
  throw new UserInputError('BAD_CHANNEL', `"${word}" is not a channel; mention it like #growth.`);
}

function requireWord(word: string | undefined, usage: string, what: string): string {
  if (word === undefined || word === '') {
    throw new UserInputError('MISSING_ARGUMENT', `Say which ${what.replace(/^the /, '')}: /pivot ${usage}`);
  }
  return word;
}
