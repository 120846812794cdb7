import { UserInputError } from '../../../../../src/core/index.js';
import { defaultGlossary, parseWorkspaceGlossary } from '../../../../../src/query/index.js';
import { SLACK_LIMITS, type SlackMessage } from '../../../../../src/render/index.js';
import { parseSlashCommand } from '../../../../../src/slack/app/parseSlashCommand.js';
import { helpTopicMessage } from '../../../../../src/slack/app/screens/helpTopicMessage.js';
import { helpMessage } from '../../../../../src/slack/app/screens/infoMessages.js';
import { messageText, slackLimitViolations } from '../../../../support/renderLimits.js';

const all = (message: SlackMessage) => messageText(message);

/** Every page of a topic, following the "next" pointer until there is none. */
function pages(topic: 'metrics' | 'dimensions' | 'ranges', glossary = defaultGlossary()): SlackMessage[] {
  const out: SlackMessage[] = [];
  for (let page = 1; page <= 20; page++) {
    const message = helpTopicMessage(topic, page, glossary);
    out.push(message);
    if (!all(message).includes('next: ')) break;
  }
  return out;
}

describe('/pivot help <topic>', () => {
  it.each([
    ['help metrics', { kind: 'help', topic: 'metrics' }],
    ['help Metric', { kind: 'help', topic: 'metrics' }],
    ['help dimensions 2', { kind: 'help', topic: 'dimensions', page: 2 }],
    ['help ranges', { kind: 'help', topic: 'ranges' }],
    ['help', { kind: 'help' }],
  ])('reads %j', (text, expected) => {
    expect(parseSlashCommand(text)).toEqual(expected);
  });

  it.each(['help metrcs', 'help metrics x', 'help metrics 0', 'help a b c'])('refuses %j with the topics', (text) => {
    expect(() => parseSlashCommand(text)).toThrow(UserInputError);
    expect(() => parseSlashCommand(text)).toThrow(/Help topics are metrics, dimensions, ranges/);
  });

  it('suggests the topic of a misspelt one', () => {
    expect(() => parseSlashCommand('help metrcs')).toThrow('Did you mean "metrics"?');
  });

  it.each(['metrics', 'dimensions', 'ranges'] as const)('fits every page of %s within Slack limits', (topic) => {
    for (const message of pages(topic)) {
      expect(slackLimitViolations(message)).toEqual([]);
      expect(JSON.stringify(message.blocks).length).toBeLessThan(SLACK_LIMITS.blockCharacters);
    }
  });

  it('lists every metric with its description and the trade words for it, across pages', () => {
    const text = pages('metrics').map(all).join('\n');
    expect(text).toContain('`installsCpi` — cost per install · _cpi, ecpi, cost per install, cost/install_');
    expect(text).toContain('`eventsRoas` — return on ad spend from attributed purchase value · _roas');
    expect(text).toContain('_click installs_');
    expect(text).toContain('`installs(attrTouch=CLICK) as clickInstalls`');
    expect(text).toContain('_conversions_');
    expect(text).toContain('asks which: `installs` (say _installs_) or `events`');
    expect(text).toMatch(/_ltv_.*no LTV.*nearest `eventValue`, `eventsRoas`/);
    expect(text).toContain('`vtaShare`');
  });

  it('lists dimensions with their words, time buckets and the ambiguous bundle', () => {
    const text = pages('dimensions').map(all).join('\n');
    expect(text).toContain('`countryCode` — ISO2 country code · _country, countries, geo');
    expect(text).toContain('`siteName` — publisher app name · _publisher, publishers, site');
    expect(text).toContain('→ `date:daily`');
    expect(text).toContain('`appBundle` (say _app bundle_) or `siteBundle`');
  });

  it('lists the range words and comparisons', () => {
    const text = all(helpTopicMessage('ranges', 1, defaultGlossary()));
    for (const word of ['L7D', 'MTD', 'QTD', 'WTD', 'past 7 days', 'WoW', 'DoD', 'MoM']) expect(text).toContain(word);
  });

  it('includes the workspace words', () => {
    const { terms } = parseWorkspaceGlossary(
      'words:\n  purchases:\n    metric: events(eventId=1014) as purchases\n',
      'g',
    );
    const text = pages('metrics', defaultGlossary().with(terms)).map(all).join('\n');
    expect(text).toContain('_purchases_ → `events(eventId=1014) as purchases`');
  });

  it('fits a page when the catalog fits one', () => {
    const message = helpTopicMessage('metrics', 1, defaultGlossary());
    expect(all(message)).not.toContain('Page ');
    expect(message.text).toBe('pivotbot help: metrics (page 1 of 1)');
  });

  it('pages a long glossary: says which page, points at the next, and a page past the end shows the last', () => {
    const yaml = [
      'words:',
      ...Array.from(
        { length: 300 },
        (_, i) => `  event word ${i}:\n    metric: events(eventId=${1000 + i}) as event${i}`,
      ),
    ].join('\n');
    const glossary = defaultGlossary().with(parseWorkspaceGlossary(yaml, 'g').terms);
    const shown = pages('metrics', glossary);
    expect(shown.length).toBeGreaterThan(1);
    for (const message of shown) expect(slackLimitViolations(message)).toEqual([]);
    expect(all(shown[0] as SlackMessage)).toContain(`Page 1 of ${shown.length} · next: \`/pivot help metrics 2\``);
    const text = shown.map(all).join('\n');
    for (const i of [0, 150, 299]) expect(text).toContain(`_event word ${i}_`);
    const past = helpTopicMessage('metrics', 99, glossary);
    expect(all(past)).toContain(`Page ${shown.length} of ${shown.length}`);
    expect(all(past)).toContain(`are ${shown.length} pages`);
  });
});

describe('/pivot help', () => {
  it('teaches with examples in the words people use, and points at the vocabulary', () => {
    const text = all(helpMessage({ sandbox: false, timezone: 'UTC' }));
    expect(text).toContain('/pivot cpi by country yesterday');
    expect(text).toContain('/pivot top 5 campaigns by spend last 7 days');
    expect(text).toContain('`/pivot help metrics`');
    expect(text).toContain('/pivot list');
    expect(slackLimitViolations(helpMessage({ sandbox: true, timezone: 'UTC' }))).toEqual([]);
  });
});
