/**
 * `/pivot help metrics | dimensions | ranges`: the catalog with its descriptions and the words of
 * the trade (and of the workspace) that mean each field, cut into pages that fit Slack's limits.
 */
import { COMPARE_TERMS, fieldText, type GlossaryIndex, type GlossaryTerm, RANGE_TERMS } from '../../../query/index.js';
import { type Block, escapeMrkdwn, fitText, SLACK_LIMITS, type SlackMessage } from '../../../render/index.js';
import { DIMENSIONS, METRICS } from '../../../reporting/index.js';

export type HelpTopic = 'metrics' | 'dimensions' | 'ranges';
export const HELP_TOPICS: readonly HelpTopic[] = ['metrics', 'dimensions', 'ranges'];

/** Well under Slack's block-characters limit, leaving room for the title and the page note. */
const PAGE_CHARACTERS = SLACK_LIMITS.blockCharacters - 1_500;
/** Sections of a page, leaving room for the title and the page note. */
const PAGE_SECTIONS = SLACK_LIMITS.blocksPerMessage - 5;
const SECTION_CHARACTERS = SLACK_LIMITS.sectionText - 100;

const TITLES: Record<HelpTopic, string> = {
  metrics:
    '*Metrics*: write the name, or one of the words in italics. Arguments go in parentheses: `installs(attrTouch=CLICK)`.',
  dimensions:
    '*Dimensions*: after `by` (or `per`). A number after campaign, app, ad, ad set or exchange filters on its id: `campaign 1001`.',
  ranges: '*Ranges and comparisons*: computed in the query zone (`tz Europe/Berlin`), the last day exclusive.',
};

/**
 * One page of a help topic, with the glossary the workspace uses (built-in and its own words).
 *
 * @example helpTopicMessage('metrics', 1, defaultGlossary())
 */
export function helpTopicMessage(topic: HelpTopic, page: number, glossary: GlossaryIndex): SlackMessage {
  const lines = topic === 'ranges' ? rangeLines() : fieldLines(topic, glossary.terms);
  const pages = paginate(lines);
  const index = Math.min(Math.max(1, Math.floor(page)), pages.length) - 1;
  const sections = pages[index] ?? [];
  const blocks: Block[] = [section(TITLES[topic]), ...sections.map(section)];
  const notes = [
    pages.length > 1
      ? `Page ${index + 1} of ${pages.length}${index + 1 < pages.length ? ` · next: \`/pivot help ${topic} ${index + 2}\`` : ''}`
      : undefined,
    page > pages.length ? `(there ${pages.length === 1 ? 'is one page' : `are ${pages.length} pages`})` : undefined,
    'Every answer starts with how the question was understood, in these exact names.',
  ].filter((n): n is string => n !== undefined);
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: notes.join(' · ') }] });
  return { text: `pivotbot help: ${topic} (page ${index + 1} of ${pages.length})`, blocks };
}

function fieldLines(topic: 'metrics' | 'dimensions', terms: readonly GlossaryTerm[]): string[] {
  const isMetrics = topic === 'metrics';
  const fields = isMetrics ? METRICS : DIMENSIONS;
  const synonyms = new Map<string, string[]>();
  const extra: string[] = [];
  for (const term of terms) {
    const m = term.means;
    const words = term.words.map((w) => `_${escapeMrkdwn(w)}_`).join(', ');
    if (m.kind === 'metric' && isMetrics) {
      if (!m.args && !m.as) synonyms.set(m.metric, [...(synonyms.get(m.metric) ?? []), ...term.words]);
      else
        extra.push(
          `• ${words} → \`${fieldText({ name: m.metric, ...(m.args ? { args: { ...m.args } } : {}), ...(m.as ? { as: m.as } : {}) })}\` — ${escapeMrkdwn(term.description)}`,
        );
    } else if (m.kind === 'dimension' && !isMetrics) {
      if (!m.granularity) synonyms.set(m.dimension, [...(synonyms.get(m.dimension) ?? []), ...term.words]);
      else extra.push(`• ${words} → \`date:${m.granularity.toLowerCase()}\` — ${escapeMrkdwn(term.description)}`);
    } else if (m.kind === 'ambiguous' && isMetricName(m.choices[0]?.name ?? '') === isMetrics) {
      extra.push(`• ${words} — asks which: ${m.choices.map((c) => `\`${c.name}\` (say _${c.say}_)`).join(' or ')}`);
    } else if (m.kind === 'missing' && (m.what === 'metric') === isMetrics) {
      extra.push(
        `• ${words} — ${escapeMrkdwn(term.description)}; nearest ${m.nearest.map((n) => `\`${n}\``).join(', ')}`,
      );
    }
  }
  const lines = fields.map((f) => {
    const also = synonyms.get(f.name);
    const words = also ? ` · _${also.map(escapeMrkdwn).join(', ')}_` : '';
    return `• \`${f.name}\` — ${escapeMrkdwn(f.description)}${words}`;
  });
  return [...lines, ...extra];
}

function rangeLines(): string[] {
  return [
    ...RANGE_TERMS.map((r) => `• ${escapeMrkdwn(r.words)} → \`${r.means}\` — ${escapeMrkdwn(r.description)}`),
    ...COMPARE_TERMS.map((r) => `• ${escapeMrkdwn(r.words)} → \`${r.means}\` — ${escapeMrkdwn(r.description)}`),
  ];
}

/** Lines into sections (each under the section limit), sections into pages (under the message limits). */
function paginate(lines: readonly string[]): string[][] {
  const pages: string[][] = [[]];
  let section = '';
  let pageCharacters = 0;
  const close = () => {
    if (section === '') return;
    let page = pages[pages.length - 1] as string[];
    if (page.length >= PAGE_SECTIONS || pageCharacters + section.length > PAGE_CHARACTERS) {
      page = [];
      pages.push(page);
      pageCharacters = 0;
    }
    page.push(section);
    pageCharacters += section.length;
    section = '';
  };
  for (const raw of lines) {
    const line = fitText(raw, SECTION_CHARACTERS);
    if (section.length + line.length + 1 > SECTION_CHARACTERS) close();
    section = section === '' ? line : `${section}\n${line}`;
  }
  close();
  return pages;
}

function isMetricName(name: string): boolean {
  return METRICS.some((m) => m.name === name);
}

function section(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}
