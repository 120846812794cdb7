/**
 * Names from the data land in mrkdwn escaped, wherever they land: a campaign named
 * `<!channel> & Co` must never notify a channel (Slack's formatting reference, "Escaping").
 */

import { explanationWords } from '../../../src/insights/index.js';
import { monospaceTable } from '../../../src/render/blocks/monospace.js';
import {
  buildTable,
  digestMessage,
  errorMessage,
  escapeMrkdwn,
  explanationMessage,
  type SlackMessage,
} from '../../../src/render/index.js';
import { topNView } from '../../support/renderFixtures.js';

const NAME = '<!channel> & Co';

/** Every text Slack reads as mrkdwn: the notification text and each mrkdwn text object. */
function mrkdwnTexts(message: SlackMessage): string[] {
  const texts = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') texts.push(o.text);
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(message.blocks);
  return texts;
}

function campaignView() {
  const view = topNView(3);
  return {
    ...view,
    title: `Spend of ${NAME}`,
    columns: view.columns.map((c, i) => (i === 0 ? { ...c, key: 'campaign', label: 'Campaign' } : c)),
    rows: view.rows.map((r, i) => ({ ...r, campaign: i === 0 ? NAME : `Campaign ${i}` })),
  };
}

describe('escapeMrkdwn', () => {
  it('escapes & < > only, & first', () => {
    expect(escapeMrkdwn('<!channel> & Co "x" \'y\' &amp;')).toBe('&lt;!channel&gt; &amp; Co "x" \'y\' &amp;amp;');
  });
});

describe('a campaign named <!channel> & Co', () => {
  it('is escaped in a digest, in its monospace table as in its notification text', () => {
    const message = digestMessage(campaignView(), { tableStyle: 'monospace' });
    const texts = mrkdwnTexts(message);
    expect(texts.join('\n')).toContain('&lt;!channel&gt; &amp; Co');
    for (const text of texts) expect(text).not.toMatch(/<!channel>/);
  });

  it('stays as written in a table block, whose raw_text cells Slack does not parse', () => {
    const { block } = buildTable(campaignView());
    expect(JSON.stringify(block)).toContain(JSON.stringify(NAME).slice(1, -1));
    const message = digestMessage(campaignView());
    for (const text of mrkdwnTexts(message)) expect(text).not.toMatch(/<!channel>/);
  });

  it('keeps the monospace columns aligned: escaped after padding', () => {
    const { text } = monospaceTable(
      [
        ['Campaign', 'Spend'],
        [NAME, '$1'],
        ['Plain', '$2'],
      ],
      ['left', 'right'],
      3000,
    );
    const lines = text.split('\n').slice(3, 5);
    // Padded as the 15 characters of the name, not the 27 of its escaped form.
    expect(lines).toEqual([`${escapeMrkdwn(NAME)}     $1`, `Plain${' '.repeat(15)}$2`]);
  });

  it('is escaped in an explanation, blocks and notification text', () => {
    const explanation = {
      metric: 'spend',
      current: 200,
      baseline: 100,
      change: 100,
      diffuse: false,
      queries: 3,
      partial: false,
      explored: { dimensions: 1, of: 1 },
      drivers: [{ where: { campaign: NAME }, current: 150, baseline: 50, contribution: 100, share: 1 }],
      notes: [],
    };
    const message = explanationMessage({
      title: 'Daily KPIs',
      periods: 'Yesterday vs the day before',
      metrics: [
        {
          label: 'Spend',
          unit: 'currency',
          explanation,
          words: explanationWords(explanation, { metric: 'spend', unit: 'currency' }),
        },
      ],
    });
    const texts = mrkdwnTexts(message);
    expect(texts.join('\n')).toContain('&lt;!channel&gt; &amp; Co');
    for (const text of texts) expect(text).not.toMatch(/<!channel>/);
  });
});

describe('an error message names channels the bot links itself', () => {
  it('keeps <#C…> links and escapes everything else the user message quotes', () => {
    const message = errorMessage({ userMessage: '`daily` already posts in <#C0UADAILY1>; you typed <!here> & <@U1>' });
    const shown = JSON.stringify(message);
    expect(message.text).toBe(
      'Error: `daily` already posts in <#C0UADAILY1>; you typed &lt;!here&gt; &amp; &lt;@U1&gt;',
    );
    expect(shown).toContain('already posts in <#C0UADAILY1>');
    expect(shown).not.toContain('<!here>');
    expect(shown).not.toContain('<@U1>');
  });
});
