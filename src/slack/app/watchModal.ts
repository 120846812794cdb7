/**
 * "Watch this": the modal that turns an answer into an alert rule (pure: the view, the form read
 * from Slack's state, and its verdict). The rule is a report file's `alerts` entry, evaluated on
 * the answer's query (or on one row of it) every day at the chosen time.
 */
import { createHash } from 'node:crypto';
import { incidentEntity } from '../../alerts/index.js';
import { fitText, type ModalView, SLACK_LIMITS } from '../../render/index.js';
import { suggestedName } from './scheduleModal.js';
import { ROW_PREFIX, type WatchChoices } from './watchChoices.js';

export const WATCH_MODAL_CALLBACK = 'pivot_watch';
const MAX_NAME = 40;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The pickers that redraw the modal (`dispatch_action`): the suggestion depends on the metric and
 * row, the preview on those, the rule and the threshold (sent when Enter is pressed in it).
 */
export const WATCH_ACTIONS = {
  metric: 'pivot_wm_metric',
  on: 'pivot_wm_on',
  rule: 'pivot_wm_rule',
  threshold: 'pivot_wm_threshold',
} as const;
const SUGGESTED = /^suggest-(above|below):(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?):([0-9a-f]{8})$/;

export const WATCH_BLOCKS = {
  name: 'watch_name',
  metric: 'watch_metric',
  on: 'watch_on',
  rule: 'watch_rule',
  threshold: 'watch_threshold',
  time: 'watch_time',
  choices: 'watch_choices',
  preview: 'watch_preview',
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

/** Option texts are the tightest of the modal's plain texts (75 characters); the rest share the bound. */
const plain = (text: string) => ({ type: 'plain_text' as const, text: fitText(text, SLACK_LIMITS.optionText) });
const option = (value: string, text: string) => ({ text: plain(text), value });

const RULES = [
  ['anomaly', 'Unusual for the weekday (same weekday, last 4 weeks)'],
  ['above', 'Above a threshold I type'],
  ['below', 'Below a threshold I type'],
] as const;

/** What a suggestion option is for: the metric and entity it was computed on (a short digest). */
export function suggestionTag(metric: string, on: string): string {
  return createHash('sha256').update(`${metric}\n${on}`).digest('hex').slice(0, 8);
}

/** The rows and suggestion, still being read, or the reason they could not be. */
export type WatchChoicesState = WatchChoices | { loading: true } | { error: string };

/**
 * The rule's backtest over the last days: being replayed, why there is none (no threshold typed
 * yet, a refusal), or its sentence and how it was made, with the chart's uploaded file.
 */
export type WatchPreviewState =
  | { loading: true }
  | { note: string }
  | { sentence: string; how: string; chart?: { slackFileId: string; alt: string } };

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

/**
 * The modal, prefilled from the answer: its first metric, each row (the query's entities) when it
 * has a breakdown else the total, and the same-weekday anomaly rule, checked daily at 09:00. With
 * `choices`, the answer's rows can be picked one by one, and for one row or the total the rule
 * list offers the threshold suggested from the recent values (`watchChoices`).
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
  /** What is picked so far (a redraw); default the first metric, each row or the total, the anomaly rule. */
  selected?: { metric: string; on: string; rule?: string; threshold?: string };
  choices?: WatchChoicesState;
  preview?: WatchPreviewState;
}): ModalView {
  const metadata: WatchModalMetadata = { query: input.query, channel: input.channel };
  const metricOptions = input.metrics.slice(0, 100).map((m) => option(m, m));
  const choices = input.choices && 'rows' in input.choices ? input.choices : undefined;
  const onOptions = [
    option('entity', 'Each row of the answer'),
    option('total', 'The total'),
    ...(choices?.rows ?? []).map((r) => option(`${ROW_PREFIX}${r.key}`, `Only ${r.label}`)),
  ];
  const metric = input.selected?.metric ?? input.metrics[0];
  const on = input.selected?.on ?? (input.byEntity ? 'entity' : 'total');
  const suggestion = choices?.suggestion;
  const tag = metric === undefined ? '' : suggestionTag(metric, on);
  const ruleOptions = [
    option(RULES[0][0], RULES[0][1]),
    ...(suggestion
      ? [
          option(
            `suggest-above:${suggestion.above}:${tag}`,
            `Above ${number(suggestion.above)}, the highest of the ${suggestion.days} days before`,
          ),
          option(
            `suggest-below:${suggestion.below}:${tag}`,
            `Below ${number(suggestion.below)}, the lowest of the ${suggestion.days} days before`,
          ),
        ]
      : []),
    option(RULES[1][0], RULES[1][1]),
    option(RULES[2][0], RULES[2][1]),
  ];
  const initial = (options: ReturnType<typeof option>[], value: string | undefined) =>
    options.find((o) => o.value === value) ?? options[0];
  const metricInitial = initial(metricOptions, metric);
  const onInitial = initial(onOptions, on);
  const ruleInitial = initial(ruleOptions, input.selected?.rule);
  const threshold = input.selected?.threshold;
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
        text: {
          type: 'mrkdwn',
          text: `Alert on \`${fitText((input.understood ?? input.query).replace(/`/g, "'"), SLACK_LIMITS.sectionText - 11)}\``,
        },
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
        dispatch_action: true,
        label: plain('Metric'),
        element: {
          type: 'static_select',
          action_id: WATCH_ACTIONS.metric,
          options: metricOptions,
          ...(metricInitial ? { initial_option: metricInitial } : {}),
        },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.on,
        dispatch_action: true,
        label: plain('Watch'),
        element: {
          type: 'static_select',
          action_id: WATCH_ACTIONS.on,
          options: onOptions,
          ...(onInitial ? { initial_option: onInitial } : {}),
        },
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.rule,
        dispatch_action: true,
        label: plain('Rule'),
        element: {
          type: 'static_select',
          action_id: WATCH_ACTIONS.rule,
          options: ruleOptions,
          ...(ruleInitial ? { initial_option: ruleInitial } : {}),
        },
      },
      {
        type: 'context',
        block_id: WATCH_BLOCKS.choices,
        elements: [{ type: 'mrkdwn', text: choicesNote(input.choices) }],
      },
      {
        type: 'input',
        block_id: WATCH_BLOCKS.threshold,
        optional: true,
        dispatch_action: true,
        label: plain('Threshold (for a value I type; Enter updates the preview)'),
        element: {
          type: 'number_input',
          action_id: WATCH_ACTIONS.threshold,
          is_decimal_allowed: true,
          dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
          ...(threshold !== undefined && threshold !== '' ? { initial_value: threshold } : {}),
        },
      },
      ...previewBlocks(input.preview),
      {
        type: 'input',
        block_id: WATCH_BLOCKS.time,
        label: plain(`Check every day at (${input.timezone})`),
        element: { type: 'timepicker', action_id: 'value', initial_time: '09:00' },
      },
    ],
  };
}

/** The preview: the rule's backtest sentence (and chart), or why there is none yet. */
function previewBlocks(preview: WatchPreviewState | undefined): ModalView['blocks'] {
  const text =
    preview === undefined || 'loading' in preview
      ? `:hourglass_flowing_sand: Replaying the rule over the last ${PREVIEW_DAYS} days…`
      : 'note' in preview
        ? `*Preview:* ${preview.note}`
        : `*Preview:* this rule ${preview.sentence}.\n${preview.how}`;
  const blocks: ModalView['blocks'] = [
    {
      type: 'section',
      block_id: WATCH_BLOCKS.preview,
      text: { type: 'mrkdwn', text: fitText(text, SLACK_LIMITS.sectionText) },
    },
  ];
  if (preview && 'chart' in preview && preview.chart) {
    blocks.push({
      type: 'image',
      slack_file: { id: preview.chart.slackFileId },
      alt_text: fitText(preview.chart.alt, 2000),
    });
  }
  return blocks;
}

/** Days the preview replays (as `/pivot backtest`). */
export const PREVIEW_DAYS = 30;

/** The line under the rule list: what the suggestion is based on, or why there is none. */
function choicesNote(choices: WatchChoicesState | undefined): string {
  if (choices === undefined) return 'Pick one row or the total for a threshold suggested from its recent values.';
  if ('loading' in choices) return ':hourglass_flowing_sand: Reading the answer’s rows and recent values…';
  if ('error' in choices)
    return `:warning: The rows and recent values could not be read (${fitText(choices.error, 200)}); the rules above still work.`;
  if (choices.suggestion)
    return `Suggested thresholds: the highest and lowest daily values of the ${choices.suggestion.days} days before the answer’s day.`;
  return choices.note ?? '';
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
 * The form's verdict: errors by block, or the rule (a report file's `alerts` entry), its name, and
 * the row it watches when one row was picked (its entity key: the caller narrows the query to it).
 *
 * @example validateWatchForm(form, { metrics: ['installsCpi'], taken: () => false, timezone: 'UTC' })
 * // { ok: true, name: 'cpi', rule: { id: 'cpi', metric: 'installsCpi', on: 'entity', anomaly: {…}, check: { cron: '0 9 * * *', timezone: 'UTC' } } }
 */
export function validateWatchForm(
  form: WatchForm,
  context: { metrics: readonly string[]; taken: (name: string) => boolean; timezone: string },
):
  | { ok: true; name: string; rule: Record<string, unknown>; row?: string }
  | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!NAME.test(form.name) || form.name.length > MAX_NAME)
    errors[WATCH_BLOCKS.name] = 'Use lowercase letters, digits and dashes, like cpi-by-country.';
  else if (context.taken(form.name))
    errors[WATCH_BLOCKS.name] = `A watch named ${form.name} exists; pick another name.`;
  if (!context.metrics.includes(form.metric)) errors[WATCH_BLOCKS.metric] = 'Pick one of the answer’s metrics.';
  const row = form.on.startsWith(ROW_PREFIX) ? form.on.slice(ROW_PREFIX.length) : undefined;
  // A row is its entity key: `dimension=value` pairs joined by `|`, a `|` inside a value (a campaign
  // named `US | iOS | Summer`) kept, as the incident reader reads it.
  if (row !== undefined && incidentEntity({ entityKey: row }).length === 0)
    errors[WATCH_BLOCKS.on] = 'Pick each row, the total, or one row of the answer.';
  else if (row === undefined && form.on !== 'entity' && form.on !== 'total')
    errors[WATCH_BLOCKS.on] = 'Pick each row, the total, or one row of the answer.';
  let condition: Record<string, unknown> | undefined;
  const suggested = SUGGESTED.exec(form.rule);
  if (suggested) {
    // The suggestion was computed for one metric and row: picking another since makes it stale.
    if (suggested[3] !== suggestionTag(form.metric, form.on))
      errors[WATCH_BLOCKS.rule] = 'That suggestion was for another metric or row; pick the rule again.';
    else condition = { [suggested[1] as string]: Number(suggested[2]) };
  } else if (form.rule === 'above' || form.rule === 'below') {
    const threshold = Number(form.threshold);
    if (form.threshold === '' || !Number.isFinite(threshold))
      errors[WATCH_BLOCKS.threshold] = `Give the value the metric must go ${form.rule}.`;
    else condition = { [form.rule]: threshold };
  } else if (form.rule === 'anomaly') condition = { anomaly: { baseline: 'same_weekday', weeks: 4 } };
  else errors[WATCH_BLOCKS.rule] = 'Pick a rule.';
  const time = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(form.time);
  if (!time) errors[WATCH_BLOCKS.time] = 'Pick a time.';
  if (Object.keys(errors).length > 0 || !time || !condition) return { ok: false, errors };
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
    ...(row !== undefined ? { row } : {}),
  };
}

/**
 * The rule the form describes so far, for the preview (the name and time need not be valid yet:
 * `watch-preview` at 09:00 stands in), or why there is none yet, in words for the modal.
 *
 * @example previewRuleOf(form, { metrics: ['spend'], timezone: 'UTC' }) // { rule: { id: 'watch-preview', metric: 'spend', above: 500, … } }
 */
export function previewRuleOf(
  form: WatchForm,
  context: { metrics: readonly string[]; timezone: string },
): { rule: Record<string, unknown>; row?: string } | { note: string } {
  const time = /^([01]\d|2[0-3]):([0-5]\d)$/.test(form.time) ? form.time : '09:00';
  const verdict = validateWatchForm(
    { ...form, name: 'watch-preview', time },
    { metrics: context.metrics, taken: () => false, timezone: context.timezone },
  );
  if (verdict.ok) return { rule: verdict.rule, ...(verdict.row !== undefined ? { row: verdict.row } : {}) };
  if (verdict.errors[WATCH_BLOCKS.threshold])
    return { note: 'type a threshold and press Enter to see how often it would have fired.' };
  return { note: 'pick a metric, a row and a rule to see how often it would have fired.' };
}
