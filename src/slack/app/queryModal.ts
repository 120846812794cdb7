/**
 * The query-builder modal of `/pivot` (and `/pivot new`): metrics and dimensions picked from the
 * catalog (grouped, with descriptions and the trade's words), a range, country / app / campaign
 * filters, top N and a comparison. The modal shows the equivalent query line and keeps it current;
 * submitting runs that line exactly as if it had been typed. Pure: the view from data, no Slack
 * calls (those are in `modalActions.ts`); what the fields say (query line, problems, validation)
 * is `queryModalFields.ts`.
 */
import type { InputBlock } from '@slack/types';
import type { GlossaryTerm } from '../../query/index.js';
import { fitText, type KnownBlock, type ModalView, SLACK_LIMITS } from '../../render/index.js';
import { DIMENSIONS, METRICS } from '../../reporting/index.js';
import {
  COMPARISONS,
  EMPTY_FIELDS,
  MODAL_RANGES,
  QUERY_BLOCKS,
  QUERY_MODAL_ACTION_PREFIX,
  QUERY_MODAL_CALLBACK,
  type QueryModalFields,
  type QueryModalMetadata,
  queryLine,
} from './queryModalFields.js';

/** Groups of the pickers, first match wins; anything unmatched goes to the last group. */
const METRIC_GROUPS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Cost', /^(spend|billableSpend|cpc|cpm|absoluteCpx)$/],
  ['Delivery', /^(impressions|uniqueImpressions|clicks|uniqueClicks|eviews|eclicks|ctr|simps|sourceViewa|vtaShare)$/],
  ['Installs', /^installs/],
  ['Events and revenue', /^(events|uniqueEvents|eventValue|eventsCpa|eventsIte|eventsRate|eventsRoas|uniqueEventsCpa)/],
  ['Goals and quality', /./],
];

const DIMENSION_GROUPS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Time', /^(date|dateToStr|dayOfWeek|timeOfDay)$/],
  ['Geography', /^(countryCode|countryName|region|city|dma|zipCode|campaignCountry|advertiserCountryId)$/],
  ['App and advertiser', /^(app|advertiser)/],
  ['Campaign', /^campaign/],
  ['Ad set and ad', /^(ad|group)/],
  ['Supply (exchange, publisher)', /^(source|site)/],
  ['Device and SKAdNetwork', /^(deviceType|skad|osCtv|proxyType)/],
  ['Other', /./],
];

/** The date dimension is offered at each granularity instead of bare. */
const DATE_CHOICES: ReadonlyArray<readonly [string, string]> = [
  ['date:daily', 'by day'],
  ['date:weekly', 'by week'],
  ['date:monthly', 'by month'],
  ['date:hourly', 'by hour'],
];

/** Slack's limit on a select's options (Block Kit reference). */
const OPTIONS_PER_SELECT = 100;

interface SlackOption {
  text: { type: 'plain_text'; text: string };
  value: string;
  description?: { type: 'plain_text'; text: string };
}
interface OptionGroup {
  label: { type: 'plain_text'; text: string };
  options: SlackOption[];
}

const plain = (text: string) => ({ type: 'plain_text' as const, text: fitText(text, SLACK_LIMITS.modalPlainText) });

function option(value: string, label: string, description?: string): SlackOption {
  return {
    text: { type: 'plain_text', text: fitText(label, SLACK_LIMITS.optionText) },
    value,
    ...(description
      ? { description: { type: 'plain_text', text: fitText(description, SLACK_LIMITS.optionDescription) } }
      : {}),
  };
}

/** The trade's words for each catalog field (`installsCpi` → cpi, ecpi …), from the glossary. */
function wordsByField(terms: readonly GlossaryTerm[]): Map<string, string[]> {
  const words = new Map<string, string[]>();
  for (const term of terms) {
    const m = term.means;
    const name = m.kind === 'metric' && !m.args && !m.as ? m.metric : m.kind === 'dimension' ? m.dimension : undefined;
    if (name) words.set(name, [...(words.get(name) ?? []), ...term.words]);
  }
  return words;
}

function grouped(
  items: ReadonlyArray<{ value: string; label: string; description: string; group: string }>,
  order: readonly string[],
): OptionGroup[] {
  const groups = order
    .map((label) => ({
      label: plain(label),
      options: items.filter((i) => i.group === label).map((i) => option(i.value, i.label, i.description)),
    }))
    .filter((g) => g.options.length > 0);
  // Slack refuses a select with more than 100 options over all its groups: the last ones go.
  let left = OPTIONS_PER_SELECT;
  return groups
    .map((g) => {
      const options = g.options.slice(0, Math.max(0, left));
      left -= options.length;
      return { ...g, options };
    })
    .filter((g) => g.options.length > 0);
}

const groupOf = (name: string, groups: ReadonlyArray<readonly [string, RegExp]>) =>
  (groups.find(([, pattern]) => pattern.test(name)) ?? groups[groups.length - 1])?.[0] ?? '';

/** The metric picker's option groups: every catalog metric, its description and the trade's words. */
export function metricOptionGroups(terms: readonly GlossaryTerm[]): OptionGroup[] {
  const words = wordsByField(terms);
  const items = METRICS.map((m) => {
    const also = words.get(m.name);
    return {
      value: m.name,
      label: also ? `${m.name} (${also.slice(0, 3).join(', ')})` : m.name,
      description: m.description,
      group: groupOf(m.name, METRIC_GROUPS),
    };
  });
  return grouped(
    items,
    METRIC_GROUPS.map(([label]) => label),
  );
}

/** The dimension picker's option groups; the date dimension once per granularity. */
export function dimensionOptionGroups(terms: readonly GlossaryTerm[]): OptionGroup[] {
  const words = wordsByField(terms);
  // Connected-TV fields need `channel ctv`, which the modal does not offer.
  const items = DIMENSIONS.filter((d) => !d.ctvOnly).flatMap((d) => {
    if (d.name === 'date') {
      return DATE_CHOICES.map(([value, how]) => ({
        value,
        label: `${value} (${how})`,
        description: d.description,
        group: 'Time',
      }));
    }
    const also = words.get(d.name);
    return [
      {
        value: d.name,
        label: also ? `${d.name} (${also.slice(0, 3).join(', ')})` : d.name,
        description: d.description,
        group: groupOf(d.name, DIMENSION_GROUPS),
      },
    ];
  });
  return grouped(
    items,
    DIMENSION_GROUPS.map(([label]) => label),
  );
}

/**
 * The modal view for `views.open` / `views.update`: the pickers (grouped options, at most 100 per
 * select), the range, filters, top N, comparison, and the query line the fields make.
 *
 * @example queryModalView({ channel: 'C123', terms: defaultGlossary().terms })
 */
export function queryModalView(input: {
  channel: string;
  responseUrl?: string;
  terms: readonly GlossaryTerm[];
  fields?: QueryModalFields;
}): ModalView {
  const fields = input.fields ?? EMPTY_FIELDS;
  const metricGroups = metricOptionGroups(input.terms);
  const dimensionGroups = dimensionOptionGroups(input.terms);
  const findOptions = (groups: OptionGroup[], values: readonly string[]) =>
    groups.flatMap((g) => g.options).filter((o) => values.includes(o.value));
  const rangeOptions = MODAL_RANGES.map(([value, label]) => option(value, label));
  const compareOptions = COMPARISONS.map(([value, label]) => option(value, label));
  const textInput = (block: string, label: string, placeholder: string, value: string, hint: string): InputBlock => ({
    type: 'input',
    block_id: block,
    optional: true,
    dispatch_action: true,
    label: plain(label),
    hint: plain(hint),
    element: {
      type: 'plain_text_input',
      action_id: `${QUERY_MODAL_ACTION_PREFIX}${block}`,
      placeholder: plain(placeholder),
      ...(value ? { initial_value: value } : {}),
      dispatch_action_config: { trigger_actions_on: ['on_enter_pressed', 'on_character_entered'] },
    },
  });
  const metricsChosen = findOptions(metricGroups, fields.metrics);
  const dimensionsChosen = findOptions(dimensionGroups, fields.dimensions);
  const range = rangeOptions.find((o) => o.value === fields.range);
  const compare = compareOptions.find((o) => o.value === fields.compare);
  const line = queryLine(fields);
  const blocks: KnownBlock[] = [
    {
      type: 'input',
      block_id: QUERY_BLOCKS.metrics,
      dispatch_action: true,
      label: plain('Metrics'),
      element: {
        type: 'multi_static_select',
        action_id: `${QUERY_MODAL_ACTION_PREFIX}metrics`,
        placeholder: plain('spend, installsCpi (cpi) …'),
        option_groups: metricGroups,
        ...(metricsChosen.length > 0 ? { initial_options: metricsChosen } : {}),
      },
    },
    {
      type: 'input',
      block_id: QUERY_BLOCKS.dimensions,
      optional: true,
      dispatch_action: true,
      label: plain('By (dimensions)'),
      element: {
        type: 'multi_static_select',
        action_id: `${QUERY_MODAL_ACTION_PREFIX}dimensions`,
        placeholder: plain('countryCode (country), date:daily …'),
        option_groups: dimensionGroups,
        ...(dimensionsChosen.length > 0 ? { initial_options: dimensionsChosen } : {}),
      },
    },
    {
      type: 'input',
      block_id: QUERY_BLOCKS.range,
      dispatch_action: true,
      label: plain('Range'),
      element: {
        type: 'static_select',
        action_id: `${QUERY_MODAL_ACTION_PREFIX}range`,
        options: rangeOptions,
        ...(range ? { initial_option: range } : {}),
      },
    },
    textInput(
      QUERY_BLOCKS.country,
      'Countries',
      'US, BR or Brazil',
      fields.country,
      'Codes or names, comma-separated.',
    ),
    textInput(QUERY_BLOCKS.app, 'App ids', '101, 102', fields.app, 'Only these apps (appId).'),
    textInput(QUERY_BLOCKS.campaign, 'Campaign ids', '1001', fields.campaign, 'Only these campaigns (campaignId).'),
    textInput(QUERY_BLOCKS.top, 'Top N rows', '10', fields.top, 'Keeps the first N rows, by the first metric.'),
    {
      type: 'input',
      block_id: QUERY_BLOCKS.compare,
      dispatch_action: true,
      label: plain('Compare'),
      element: {
        type: 'static_select',
        action_id: `${QUERY_MODAL_ACTION_PREFIX}compare`,
        options: compareOptions,
        ...(compare ? { initial_option: compare } : {}),
      },
    },
    { type: 'divider' },
    {
      type: 'section',
      block_id: QUERY_BLOCKS.line,
      text: {
        type: 'mrkdwn',
        text: fitText(`*The same as typing:*\n\`/pivot ${line.replace(/`/g, "'")}\``, SLACK_LIMITS.sectionText),
      },
    },
  ];
  return {
    type: 'modal',
    callback_id: QUERY_MODAL_CALLBACK,
    title: plain('Build a query'),
    submit: plain('Run'),
    close: plain('Cancel'),
    private_metadata: JSON.stringify({
      channel: input.channel,
      ...(input.responseUrl ? { responseUrl: input.responseUrl } : {}),
    } satisfies QueryModalMetadata),
    blocks,
  };
}
