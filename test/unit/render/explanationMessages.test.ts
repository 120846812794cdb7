import { describe, expect, it } from '@jest/globals';
import {
  becauseLine,
  type ExplainedMetric,
  type ExplanationSummary,
  explanationMessage,
  mixOrRate,
  rankingText,
  segmentText,
} from '../../../src/render/index.js';

const labels: Record<string, string> = { countryCode: 'Country', appPlatform: 'Platform', source: 'Source' };
const labelOf = (d: string) => labels[d] ?? d;

function installs(overrides: Partial<ExplanationSummary> = {}): ExplainedMetric {
  return {
    label: 'Installs',
    unit: 'count',
    labelOf,
    explanation: {
      metric: 'installs',
      current: 116,
      baseline: 139,
      change: -23,
      diffuse: false,
      queries: 9,
      partial: false,
      explored: { dimensions: 6, of: 6 },
      drivers: [
        {
          where: { countryCode: 'BR', appPlatform: 'IOS' },
          current: 2,
          baseline: 18.6,
          contribution: -16.6,
          share: 0.72,
        },
        { where: { source: 'Vungle' }, current: 30, baseline: 33, contribution: -3, share: 0.13 },
      ],
      notes: [],
      ...overrides,
    },
  };
}

function cpi(mix: number, rate: number): ExplainedMetric {
  return {
    label: 'CPI',
    unit: 'currency',
    labelOf,
    explanation: {
      metric: 'installsCpi',
      current: 2.2,
      baseline: 2,
      change: 0.2,
      diffuse: false,
      queries: 8,
      partial: false,
      drivers: [
        { where: { countryCode: 'US' }, current: 3, baseline: 3, contribution: mix + rate, share: 0.9, mix, rate },
      ],
      notes: [],
    },
  };
}

describe('becauseLine', () => {
  it('names the best driver with its change and share of the whole change', () => {
    expect(becauseLine(installs())).toBe('Installs −16.5 %: Country BR · Platform IOS −16.6 (72 % of the change)');
  });

  it('names no driver when the change is diffuse', () => {
    const line = becauseLine(installs({ diffuse: true }));
    expect(line).toContain('diffuse');
    expect(line).not.toContain('BR');
  });

  it('says how much it explored when the budget ran out', () => {
    expect(becauseLine(installs({ partial: true, explored: { dimensions: 4, of: 8 } }))).toContain(
      'partial: explored 4 of 8 dimensions',
    );
  });

  it('says mix for a Simpson-like driver and rate for a segment that got dearer', () => {
    expect(becauseLine(cpi(0.18, 0.0))).toContain('; mix)');
    expect(becauseLine(cpi(0.0, 0.18))).toContain('; rate)');
    expect(mixOrRate({ where: {}, current: 0, baseline: 0, contribution: 0.2, share: 1, mix: 0.1, rate: 0.1 })).toBe(
      'both',
    );
  });
});

describe('segmentText', () => {
  it('reads dimensions in the order the engine found them', () => {
    expect(segmentText({ source: 'Vungle', countryCode: 'BR' }, labelOf)).toBe('Source Vungle · Country BR');
    expect(segmentText({}, labelOf)).toBe('everything');
  });
});

describe('explanationMessage', () => {
  it('ranks the drivers with shares, says how many queries it used, and escapes segment values', () => {
    const metric = installs();
    const weird: ExplainedMetric = {
      ...metric,
      explanation: {
        ...metric.explanation,
        drivers: [{ where: { source: '<!channel>' }, current: 1, baseline: 2, contribution: -1, share: 0.5 }],
      },
    };
    const message = explanationMessage({ title: 'Daily KPIs', periods: 'Yesterday vs previous day', metrics: [weird] });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('9 queries');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    expect(message.text).toContain('Why it moved: Daily KPIs');
  });

  it('shows mix and rate for ratio drivers', () => {
    const text = JSON.stringify(explanationMessage({ title: 'q', periods: 'p', metrics: [cpi(0.05, 0.15)] }).blocks);
    expect(text).toContain('mix +$0.05');
    expect(text).toContain('rate +$0.15');
  });
});

describe('a ratio driver’s mix and rate in the thread', () => {
  it('leaves out a part that is only a float residue, and shows both real parts', () => {
    const residue = rankingText(cpi(0.06, 2.08e-17));
    expect(residue).toContain('mix +$0.06');
    expect(residue).not.toContain('rate');
    expect(residue).not.toMatch(/0\.0000/);
    const both = rankingText(cpi(0.06, 1.15));
    expect(both).toContain('mix +$0.06, rate +$1.15');
  });
});
