/**
 * Slack's explanation texts (a digest's "because" line, the thread's ranking, an incident's reply)
 * in the explanation engine's words: the engine runs on issue 33's leaf fixtures, its words are
 * made by insights' `explanationWords`, and render prints them. The CLI's texts for the same
 * fixtures are in test/unit/explain/issue33.test.ts: the mechanism reads the same in both.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { type Explanation, explain, leafCsvSource, parseLeafTable } from '../../../src/explain/index.js';
import { explanationWords } from '../../../src/insights/index.js';
import {
  becauseLine,
  type ExplainedMetric,
  explanationChartView,
  explanationMessage,
  type FormatUnit,
  rankingText,
  signedValue,
} from '../../../src/render/index.js';
import { parseCsv } from '../../../src/reporting/index.js';

const fixture = (name: string) => readFileSync(`test/fixtures/explain/${name}.csv`, 'utf8');

/** A KPI as explainReport hands it to render: the engine's explanation and its words. */
function explained(
  label: string,
  unit: FormatUnit,
  explanation: Explanation,
  metric = explanation.metric,
): ExplainedMetric {
  return { label, unit, explanation, words: explanationWords(explanation, { metric, unit }) };
}

async function fromLeaves(csv: string, metric: string, label: string, unit: FormatUnit): Promise<ExplainedMetric> {
  const table = parseLeafTable(parseCsv(csv), { name: 'leaves.csv' });
  return explained(label, unit, await explain({ metric, kind: table.kind }, leafCsvSource(table)));
}

const cpi = (name: string) => fromLeaves(fixture(name), 'installsCpi', 'CPI', 'currency');

/** Eight countries each up 2–5 %, by counts: nothing stands out. */
const EVEN_RISE = [
  'countryCode,current,baseline',
  'US,1040,1000',
  'BR,930,900',
  'DE,835,800',
  'JP,722,700',
  'FR,628,600',
  'GB,514,500',
  'IN,417,400',
  'MX,311,300',
].join('\n');

describe('a ratio driver in Slack leads with its mechanism, in the CLI’s words', () => {
  it('Simpson: installs moving to dear BR read as mix, in the because line and the ranking', async () => {
    const metric = await cpi('simpson');
    expect(becauseLine(metric)).toBe(
      'CPI +40.7 %: more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere (+$1.49, 90 % of the change)',
    );
    expect(rankingText(metric).split('\n')).toEqual([
      '*CPI* $4.06 → $5.71 (+40.7 %)',
      '1. *Country code BR*  +$1.49 (90 % of the change): more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere',
      '2. *Country code US*  +$0.343 (21 % of the change): fewer of the installs came from US (60 % → 43 %), where CPI is $2 against $7.15 elsewhere',
    ]);
  });

  it('converse: every CPI rose, yet installs moved to the cheap US; both parts of US add up on screen', async () => {
    const metric = await cpi('converse');
    expect(becauseLine(metric)).toBe(
      'CPI −35.8 %: fewer of the installs came from BR (35 % → 10 %), where CPI is $10 against $2 elsewhere (−$1.2, 70 % of the change)',
    );
    expect(rankingText(metric).split('\n')).toEqual([
      '*CPI* $4.80 → $3.08 (−35.8 %)',
      '1. *Country code BR*  −$1.2 (70 % of the change): fewer of the installs came from BR (35 % → 10 %), where CPI is $10 against $2 elsewhere',
      "2. *Country code US*  −$0.52 (30 % of the change): more of the installs came from US (65 % → 90 %), where CPI is $2 against $10 elsewhere (−$0.7), though US's CPI rose $2 → $2.2 (+$0.18)",
    ]);
  });

  it('mixed: BR got dearer and took more of the installs; rate and mix each with its amount', async () => {
    const metric = await cpi('mixed');
    expect(becauseLine(metric)).toBe(
      "CPI +64.3 %: BR's CPI rose $10 → $15 (+$1) and more of the installs came from BR (10 % → 20 %), where CPI is $10 against $2 elsewhere (+$0.72): +$1.72, 96 % of the change",
    );
    expect(rankingText(metric).split('\n')).toEqual([
      '*CPI* $2.80 → $4.60 (+64.3 %)',
      "1. *Country code BR*  +$1.72 (96 % of the change): BR's CPI rose $10 → $15 (+$1) and more of the installs came from BR (10 % → 20 %), where CPI is $10 against $2 elsewhere (+$0.72)",
      '2. *Country code US*  +$0.08 (4 % of the change): fewer of the installs came from US (90 % → 80 %), where CPI is $2 against $10 elsewhere',
    ]);
  });

  it('takes the words from the catalog metric, not from an alias of it', async () => {
    const table = parseLeafTable(parseCsv(fixture('simpson')), { name: 'simpson.csv' });
    const why = await explain({ metric: 'cpi', kind: table.kind }, leafCsvSource(table));
    expect(becauseLine(explained('CPI', 'currency', why, 'installsCpi'))).toContain(
      'more of the installs came from BR (10 % → 35 %), where CPI is $10',
    );
  });
});

describe('a diffuse change lists its largest pieces, none named as a cause', () => {
  it('says "diffuse — no segment stands out; largest pieces" in both places, and leaves out the note that restates it', async () => {
    const metric = await fromLeaves(EVEN_RISE, 'installs', 'Installs', 'count');
    expect(metric.explanation.diffuse).toBe(true);
    expect(becauseLine(metric)).toBe(
      'Installs +3.8 %: diffuse — no segment stands out; largest pieces: Country code US +40 (20 %), Country code DE +35 (18 %), Country code BR +30 (15 %)',
    );
    expect(rankingText(metric).split('\n')).toEqual([
      '*Installs* 5,200 → 5,397 (+3.8 %)',
      '_Diffuse — no segment stands out; largest pieces:_',
      '• *Country code US*  +40 (20 % of the change)',
      '• *Country code DE*  +35 (18 % of the change)',
      '• *Country code BR*  +30 (15 % of the change)',
      '• *Country code FR*  +28 (14 % of the change)',
      '• *Country code JP*  +22 (11 % of the change)',
    ]);
    const message = explanationMessage({ title: 'Daily KPIs', periods: 'p', metrics: [metric] });
    expect(JSON.stringify(message.blocks)).not.toMatch(/\d\. \*/);
  });

  it('says "largest pieces" only when none stands out', () => {
    const standing: Explanation = {
      metric: 'installs',
      current: 1100,
      baseline: 1000,
      change: 100,
      diffuse: true,
      queries: 2,
      partial: false,
      explored: { dimensions: 2, of: 2 },
      drivers: [{ where: { source: 'X' }, current: 130, baseline: 100, contribution: 30, share: 0.3, standsOut: true }],
      notes: ['diffuse: the segments that stand out explain too little of the change together'],
    };
    const metric = explained('Installs', 'count', standing);
    expect(becauseLine(metric)).toBe(
      'Installs +10.0 %: diffuse — the segments that stand out explain too little together: Source X +30 (30 %)',
    );
    expect(rankingText(metric)).not.toContain('largest pieces');
  });
});

describe('moves that cancel out', () => {
  it('says "no net change: US +501 offset by BR −500", never a share of a change that is nearly none', async () => {
    const metric = await fromLeaves(fixture('offset'), 'installs', 'Installs', 'count');
    expect(becauseLine(metric)).toBe(
      'Installs +0.0 %: no net change: Country code US +501 offset by Country code BR −500',
    );
    expect(rankingText(metric).split('\n')).toEqual([
      '*Installs* 3,800 → 3,801 (+0.0 %)',
      '_No net change: Country code US +501 offset by Country code BR −500._',
      '• *Country code US*  +501 (1,000 → 1,501)',
      '• *Country code BR*  −500 (1,000 → 500)',
    ]);
  });

  it('says it too when the net change is exactly none at the data’s precision', async () => {
    const metric = await fromLeaves(fixture('float-offset'), 'spend', 'Spend', 'currency');
    expect(becauseLine(metric)).toBe('Spend ±0.0 %: no net change: Campaign B +$10.01 offset by Campaign A −$10.01');
  });
});

describe('words that do not mislead', () => {
  it('names an empty value (empty)', async () => {
    const metric = await fromLeaves(fixture('empty-value'), 'installs', 'Installs', 'count');
    expect(becauseLine(metric)).toBe('Installs −5.5 %: Source (empty) −60 (100 % of the change)');
    expect(rankingText(metric)).toContain('1. *Source (empty)*  −60 (100 % of the change) · 100 → 40');
  });

  it('never shows ±0 (nor +0) for a small non-zero piece', () => {
    expect(signedValue(0.000042, 'count')).toBe('+0.000042');
    expect(signedValue(-0.0042, 'score')).toBe('−0.0042');
    expect(signedValue(0, 'count')).toBe('±0');
  });

  it('shows mix and rate plainly for a ratio driver the engine gave no mechanism, leaving out a float residue', () => {
    const residue: Explanation = {
      metric: 'installsCpi',
      current: 2.2,
      baseline: 2,
      change: 0.2,
      diffuse: false,
      queries: 8,
      partial: false,
      explored: { dimensions: 1, of: 1 },
      drivers: [
        {
          where: { countryCode: 'US' },
          current: 3,
          baseline: 3,
          contribution: 0.06,
          share: 0.3,
          mix: 0.06,
          rate: 2e-17,
        },
      ],
      notes: [],
    };
    const ranking = rankingText(explained('CPI', 'currency', residue));
    expect(ranking).toContain('1. *Country code US*  +$0.06 (30 % of the change) · $3 → $3 · mix +$0.06');
    expect(ranking).not.toContain('rate');
    const both: Explanation = {
      ...residue,
      drivers: [{ ...(residue.drivers[0] as Explanation['drivers'][number]), contribution: 1.21, rate: 1.15 }],
    };
    expect(rankingText(explained('CPI', 'currency', both))).toContain('· $3 → $3 · mix +$0.06, rate +$1.15');
  });
});

describe('explanationMessage', () => {
  const installs = (where: Record<string, string>, partial = false): ExplainedMetric =>
    explained('Installs', 'count', {
      metric: 'installs',
      current: 116,
      baseline: 139,
      change: -23,
      diffuse: false,
      queries: 9,
      partial,
      explored: { dimensions: partial ? 4 : 8, of: 8 },
      drivers: [{ where, current: 2, baseline: 18.6, contribution: -16.6, share: 0.72, standsOut: true }],
      notes: [],
    });

  it('names the best driver with its change and share, and says how much it explored when the budget ran out', () => {
    expect(becauseLine(installs({ countryCode: 'BR', appPlatform: 'IOS' }))).toBe(
      'Installs −16.5 %: Country code BR · App platform IOS −16.6 (72 % of the change)',
    );
    expect(becauseLine(installs({ countryCode: 'BR' }, true))).toContain('(partial: explored 4 of 8 dimensions)');
  });

  it('escapes segment values in the blocks and the notification, and says how many queries it used', () => {
    const message = explanationMessage({
      title: 'Daily KPIs',
      periods: 'Yesterday vs previous day',
      metrics: [installs({ source: '<!channel>' })],
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('9 queries');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    expect(message.text).toContain('Why it moved: Daily KPIs');
    expect(message.text).not.toContain('<!channel>');
  });

  it('escapes a data name inside a ratio’s mechanism', async () => {
    const csv = fixture('simpson').replace('BR,', '<!here>,');
    const metric = await fromLeaves(csv, 'installsCpi', 'CPI', 'currency');
    const text = JSON.stringify(explanationMessage({ title: 'q', periods: 'p', metrics: [metric] }));
    expect(text).toContain('more of the installs came from &lt;!here&gt; (10 % → 35 %)');
    expect(text).not.toContain('<!here>');
  });

  it('draws one bar per driver, named as the ranking names it', async () => {
    const view = explanationChartView(await cpi('simpson'), { title: 'q', timezone: 'UTC' });
    expect(view.rows.map((r) => r.segment)).toEqual(['Country code BR', 'Country code US']);
  });
});
