/**
 * "Watch this": the modal that turns an answer into an alert rule (pure: the view, the form read
 * from Slack's state, and its verdict). The rule is a report file's `alerts` entry, evaluated on
 * the answer's query every day at the chosen time.
 */
import { suggestedName } from './scheduleModal.js';

export const WATCH_MODAL_CALLBACK = 'pivot_watch';
const MAX_NAME = 40;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const WATCH_BLOCKS = {
  name: 'watch_name',
  metric: 'watch_metric',
  on: 'watch_on',
  rule: 'watch_rule',
  threshold: 'watch_threshold',
  time: 'watch_time',
} as const;

/** What the modal carries from open to submit. */
export interface WatchModalMetadata {
  query: string;
  /** The channel of the answer: the rule's incident threads go there. */
  channel: string;
}

export interface WatchForm {
  name: string;
  metric: string;
  on: string;
  rule: string;
  threshold: string;
  time: string;
}

const plain = (text: string) => ({
  type: 'plain_text' as const,
  text: text.length > 75 ? `${text.slice(0, 74)}…` : text,
});
const option = (value: string, text: string) => ({ text: plain(text), value });

const RULES = [
  ['anomaly', 'Unusual for the weekday (same weekday, last 4 weeks)'],
  ['above', 'Above a threshold'],
  ['below', 'Below a threshold'],
] as const;

/**
 * The modal, prefilled from the answer: its first metric, each row (the query's entities) when it
 * has a breakdown else the total, and the same-weekday anomaly rule, checked daily at 09:00.
 *
 * @example watchModalView({ query: 'installsCpi by countryCode yesterday', channel: 'C1', metrics: ['installsCpi'], byEntity: true, timezone: 'UTC' })
 */
export function watchModalView(input: {
  query: string;
  channel: string;
  metrics: readonly string[];
  byEntity: boolean;
  timezone: string;
  understood?: string;
}): Record<string, unknown> {
  const metadata: WatchModalMetadata = { query: input.query, channel: input.channel };
  const metricOptions = input.metrics.slice(0, 100).map((m) => option(m, m));
  const onOptions = [option('entity', 'Each row of the answer'), option('total', 'The total')];
  const ruleOptions = RULES.map(([value, text]) => option(value, text));
  return {
    type: 'modal',
    callback_id: WATCH_MODAL_CALLBACK,
    private_metadata: JSON.stringify(metadata),
    title: plain('Watch this'),
    submit: plain('Save the rule'),
    close: plain('Cancel'),
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `Alert on \`${(input.understood ?? input.query).replace(/`/g, "'")}\`` },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.name,
        label: plain('Name'),
        element: {
          type: 'plain_text_input',
          action_id: 'value',
          initial_value: suggestedName(input.query).slice(0, MAX_NAME),
          max_length: MAX_NAME,
        },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.metric,
        label: plain('Metric'),
        element: {
          type: 'static_select',
          action_id: 'value',
          options: metricOptions,
          ...(metricOptions[0] ? { initial_option: metricOptions[0] } : {}),
        },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.on,
        label: plain('Watch'),
        element: {
          type: 'static_select',
          action_id: 'value',
          options: onOptions,
          initial_option: input.byEntity ? onOptions[0] : onOptions[1],
        },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.rule,
        label: plain('Rule'),
        element: { type: 'static_select', action_id: 'value', options: ruleOptions, initial_option: ruleOptions[0] },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.threshold,
        optional: true,
        label: plain('Threshold (for above / below)'),
        element: { type: 'number_input', action_id: 'value', is_decimal_allowed: true },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.time,
        label: plain(`Check every day at (${input.timezone})`),
        element: { type: 'timepicker', action_id: 'value', initial_time: '09:00' },
      },
    ],
  };
}

interface ElementState {
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_time?: string | null;
}

/** The form as Slack's `view.state.values` has it. */
export function watchFormFromState(values: unknown): WatchForm {
  const state = (values ?? {}) as Record<string, Record<string, ElementState>>;
  const element = (block: string): ElementState => Object.values(state[block] ?? {})[0] ?? {};
  return {
    name: (element(WATCH_BLOCKS.name).value ?? '').trim(),
    metric: element(WATCH_BLOCKS.metric).selected_option?.value ?? '',
    on: element(WATCH_BLOCKS.on).selected_option?.value ?? 'entity',
    rule: element(WATCH_BLOCKS.rule).selected_option?.value ?? 'anomaly',
    threshold: (element(WATCH_BLOCKS.threshold).value ?? '').trim(),
    time: element(WATCH_BLOCKS.time).selected_time ?? '',
  };
}

export function parseWatchMetadata(raw: string | undefined): WatchModalMetadata | undefined {
  try {
    const value = JSON.parse(raw ?? '') as Partial<WatchModalMetadata>;
    return typeof value.query === 'string' && typeof value.channel === 'string'
      ? { query: value.query, channel: value.channel }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The form's verdict: errors by block, or the rule (a report file's `alerts` entry) and its name.
 *
 * @example validateWatchForm(form, { metrics: ['installsCpi'], taken: () => false, timezone: 'UTC' })
 * // { ok: true, name: 'cpi', rule: { id: 'cpi', metric: 'installsCpi', on: 'entity', anomaly: {…}, check: { cron: '0 9 * * *', timezone: 'UTC' } } }
 */
export function validateWatchForm(
  form: WatchForm,
  context: { metrics: readonly string[]; taken: (name: string) => boolean; timezone: string },
): { ok: true; name: string; rule: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!NAME.test(form.name) || form.name.length > MAX_NAME)
    errors[WATCH_BLOCKS.name] = 'Use lowercase letters, digits and dashes, like cpi-by-country.';
  else if (context.taken(form.name))
    errors[WATCH_BLOCKS.name] = `A watch named ${form.name} exists; pick another name.`;
  if (!context.metrics.includes(form.metric)) errors[WATCH_BLOCKS.metric] = 'Pick one of the answer’s metrics.';
  const threshold = Number(form.threshold);
  const needsThreshold = form.rule === 'above' || form.rule === 'below';
  if (needsThreshold && (form.threshold === '' || !Number.isFinite(threshold)))
    errors[WATCH_BLOCKS.threshold] = `Give the value the metric must go ${form.rule}.`;
  const time = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(form.time);
  if (!time) errors[WATCH_BLOCKS.time] = 'Pick a time.';
  if (Object.keys(errors).length > 0 || !time) return { ok: false, errors };
  const condition = needsThreshold ? { [form.rule]: threshold } : { anomaly: { baseline: 'same_weekday', weeks: 4 } };
  return {
    ok: true,
    name: form.name,
    rule: {
      id: form.name,
      metric: form.metric,
      on: form.on === 'total' ? 'total' : 'entity',
      ...condition,
      check: { cron: `${Number(time[2])} ${Number(time[1])} * * *`, timezone: context.timezone },
    },
  };
}
