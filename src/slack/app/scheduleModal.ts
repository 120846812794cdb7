/**
 * "Schedule this": the modal a result's button opens (a name, the channel, time, days, zone) and
 * the check of what it submits. A saved query is stored as a subscription of its channel to the
 * report id `saved-<name>`, carrying the query text (`savedQueries.ts` turns it into a report the
 * scheduler posts like any other). Pure: views and validation from data.
 */
import { compileQuery, QueryError, type QueryOptions } from '../../query/index.js';
import { fitText, type ModalView, SLACK_LIMITS } from '../../render/index.js';
import { normalizeTimeZone, timeZoneProblem } from '../../time/index.js';

export const SCHEDULE_MODAL_CALLBACK = 'pivot_schedule_modal';

/** A saved query's report id; names are kebab-case like report files, so the ids never clash in form. */
/** Kebab-case, at most 40 characters: it becomes a report id and a `pivotbot export` argument. */
export const SAVED_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_NAME = 40;

export const SCHEDULE_BLOCKS = {
  name: 'sq_name',
  channel: 'sq_channel',
  time: 'sq_time',
  days: 'sq_days',
  zone: 'sq_zone',
} as const;

/** Monday first; the values are ISO weekdays (1 = Monday … 7 = Sunday). */
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const WEEKDAYS = ['1', '2', '3', '4', '5'];

/** What the schedule modal carries from open to submit. */
export interface ScheduleModalMetadata {
  query: string;
  /** Where the button was clicked: the confirmation goes there. */
  origin: string;
}

export interface ScheduleForm {
  name: string;
  channel: string;
  time: string;
  days: string[];
  zone: string;
}

/** A saved query ready for the store: one subscription with its own timing and the query text. */
export interface SavedQueryInput {
  name: string;
  query: string;
  channel: string;
  /** Every day: a daily time; some days: a cron expression on those days. */
  at?: string;
  cron?: string;
  timezone: string;
}

const plain = (text: string) => ({ type: 'plain_text' as const, text: fitText(text, SLACK_LIMITS.modalPlainText) });

/** A name suggested from the query's words: `spend by countryCode last 7 days` → `spend-by-countrycode-last-7-days`. */
export function suggestedName(query: string): string {
  const words = query
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, MAX_NAME).replace(/-+$/, '') || 'saved-query';
}

/**
 * The modal: name, channel (the current one by default), time, days (weekdays by default), zone.
 *
 * @example scheduleModalView({ query: 'spend by countryCode', channel: 'C123', timezone: 'UTC' })
 */
export function scheduleModalView(input: {
  query: string;
  channel: string;
  timezone: string;
  /** What the query was understood as, shown above the fields. */
  understood?: string;
}): ModalView {
  const dayOptions = DAYS.map((day, i) => ({ text: plain(day), value: String(i + 1) }));
  const shown = (input.understood ?? input.query).replace(/`/g, "'");
  return {
    type: 'modal',
    callback_id: SCHEDULE_MODAL_CALLBACK,
    title: plain('Schedule this query'),
    submit: plain('Save'),
    close: plain('Cancel'),
    private_metadata: JSON.stringify({ query: input.query, origin: input.channel } satisfies ScheduleModalMetadata),
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `\`${fitText(shown, SLACK_LIMITS.sectionText - 2)}\`` },
      },
      {
        type: 'input',
        block_id: SCHEDULE_BLOCKS.name,
        label: plain('Name'),
        hint: plain('Lower case and dashes; `pivotbot export <name>` turns it into a report file.'),
        element: {
          type: 'plain_text_input',
          action_id: 'name',
          initial_value: suggestedName(input.query),
          max_length: MAX_NAME,
        },
      },
      {
        type: 'input',
        block_id: SCHEDULE_BLOCKS.channel,
        label: plain('Post in'),
        element: {
          type: 'conversations_select',
          action_id: 'channel',
          initial_conversation: input.channel,
          filter: { include: ['public', 'private'], exclude_bot_users: true },
        },
      },
      {
        type: 'input',
        block_id: SCHEDULE_BLOCKS.time,
        label: plain('At'),
        element: { type: 'timepicker', action_id: 'time', initial_time: '09:00' },
      },
      {
        type: 'input',
        block_id: SCHEDULE_BLOCKS.days,
        label: plain('On'),
        element: {
          type: 'checkboxes',
          action_id: 'days',
          options: dayOptions,
          initial_options: dayOptions.filter((o) => WEEKDAYS.includes(o.value)),
        },
      },
      {
        type: 'input',
        block_id: SCHEDULE_BLOCKS.zone,
        label: plain('Time zone'),
        element: { type: 'plain_text_input', action_id: 'zone', initial_value: input.timezone },
      },
    ],
  };
}

interface ElementState {
  value?: string | null;
  selected_conversation?: string | null;
  selected_time?: string | null;
  selected_options?: Array<{ value: string }>;
}

/** The form out of a view's `state.values`. */
export function scheduleFormFromState(values: unknown): ScheduleForm {
  const state = (values ?? {}) as Record<string, Record<string, ElementState>>;
  const element = (block: string): ElementState => Object.values(state[block] ?? {})[0] ?? {};
  return {
    name: (element(SCHEDULE_BLOCKS.name).value ?? '').trim(),
    channel: element(SCHEDULE_BLOCKS.channel).selected_conversation ?? '',
    time: element(SCHEDULE_BLOCKS.time).selected_time ?? '',
    days: (element(SCHEDULE_BLOCKS.days).selected_options ?? []).map((o) => o.value),
    zone: (element(SCHEDULE_BLOCKS.zone).value ?? '').trim(),
  };
}

export function parseScheduleMetadata(raw: string | undefined): ScheduleModalMetadata | undefined {
  try {
    const value = JSON.parse(raw ?? '') as Partial<ScheduleModalMetadata>;
    return typeof value.query === 'string' && typeof value.origin === 'string'
      ? { query: value.query, origin: value.origin }
      : undefined;
  } catch {
    return undefined;
  }
}

/** ISO weekdays (1 = Monday … 7 = Sunday) as a cron day-of-week list (Sunday is 0). */
function cronDays(days: readonly string[]): string {
  return [...new Set(days.map((d) => (d === '7' ? 0 : Number(d))))].sort((a, b) => a - b).join(',');
}

/**
 * Checks a submitted form; errors are keyed by block id, for `response_action: errors`.
 *
 * @example validateScheduleForm(form, { query, taken: (name) => false, queryOptions })
 */
export function validateScheduleForm(
  form: ScheduleForm,
  input: { query: string; taken: (name: string) => boolean; queryOptions: QueryOptions },
): { ok: true; saved: SavedQueryInput } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!SAVED_NAME.test(form.name) || form.name.length > MAX_NAME) {
    errors[SCHEDULE_BLOCKS.name] = `Lower-case letters, digits and dashes, up to ${MAX_NAME}: like spend-by-country.`;
  } else if (input.taken(form.name)) {
    errors[SCHEDULE_BLOCKS.name] = `"${form.name}" is taken; choose another name.`;
  }
  if (!/^[A-Z0-9]+$/.test(form.channel)) errors[SCHEDULE_BLOCKS.channel] = 'Pick the channel to post in.';
  const time = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(form.time);
  if (!time) errors[SCHEDULE_BLOCKS.time] = 'Pick a time of day.';
  const days = form.days.filter((d) => /^[1-7]$/.test(d));
  if (days.length === 0) errors[SCHEDULE_BLOCKS.days] = 'Pick at least one day.';
  const zone = normalizeTimeZone(form.zone);
  if (zone === undefined) {
    errors[SCHEDULE_BLOCKS.zone] = fitText(
      timeZoneProblem(form.zone)?.message ?? `"${form.zone}" is not a time zone (like Europe/Berlin).`,
      SLACK_LIMITS.inputError,
    );
  }
  try {
    const compiled = compileQuery(input.query, input.queryOptions);
    if (compiled.kind === 'run') errors[SCHEDULE_BLOCKS.name] = 'Subscribe to a report with `/pivot subscribe`.';
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    errors[SCHEDULE_BLOCKS.name] = fitText(`The query no longer compiles: ${error.message}`, SLACK_LIMITS.inputError);
  }
  if (Object.keys(errors).length > 0 || !time || zone === undefined) return { ok: false, errors };
  const at = `${time[1]}:${time[2]}`;
  const every = new Set(days).size === 7;
  return {
    ok: true,
    saved: {
      name: form.name,
      query: input.query,
      channel: form.channel,
      ...(every ? { at } : { cron: `${Number(time[2])} ${Number(time[1])} * * ${cronDays(days)}` }),
      timezone: zone,
    },
  };
}
