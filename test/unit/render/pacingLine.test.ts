import { digestMessage, type PacingFigures, pacingLine } from '../../../src/render/index.js';
import { timeSeriesView } from '../../support/renderFixtures.js';
import { messageText } from '../../support/renderLimits.js';

const november = (spent: number, forecast: number, plan: number, daysElapsed = 10): PacingFigures => ({
  month: '2026-11',
  spent,
  forecast,
  plan,
  share: forecast / plan,
  daysElapsed,
  daysInMonth: 30,
});

describe('the pacing line', () => {
  it.each<[string, PacingFigures, string]>([
    [
      'the issue example',
      november(41_200, 117_600, 120_000),
      'Spend $41.2K, pacing 98 % of the $120K plan (forecast $117.6K) · November 2026, 10 of 30 days',
    ],
    [
      'small amounts in dollars and cents',
      november(412.5, 1180, 1500, 3),
      'Spend $412.50, pacing 79 % of the $1.5K plan (forecast $1.2K) · November 2026, 3 of 30 days',
    ],
    [
      'over plan',
      november(80_000, 240_000, 200_000, 10),
      'Spend $80K, pacing 120 % of the $200K plan (forecast $240K) · November 2026, 10 of 30 days',
    ],
    [
      'with the forecast interval and what the plan needs',
      { ...november(41_200, 117_600, 120_000), low: 113_000, high: 123_500, neededPerDay: 3_940 },
      'Spend $41.2K, pacing 98 % of the $120K plan (forecast $117.6K, likely $113K–$123.5K) · November 2026, 10 of 30 days · needs $3.9K a day for the rest of the month to land on plan',
    ],
    [
      'yesterday still arriving, and the plan spent already',
      { ...november(130_000, 150_000, 120_000, 9), pending: '2026-11-10', neededPerDay: 0 },
      'Spend $130K, pacing 125 % of the $120K plan (forecast $150K) · November 2026, 9 of 30 days (10 Nov still arriving) · the $120K plan is spent already',
    ],
  ])('%s', (_name, figures, expected) => {
    expect(pacingLine(figures)).toBe(expected);
  });

  it('goes under the headline KPIs of a digest that has it, and nowhere without it', () => {
    const pacing = november(41_200, 117_600, 120_000);
    const blocks = digestMessage(timeSeriesView(), { pacing }).blocks;
    const at = blocks.findIndex((b) => JSON.stringify(b).includes('pacing 98 % of the $120K plan'));
    const headline = blocks.findIndex((b) => b.type === 'section' && 'fields' in b);
    expect(at).toBeGreaterThan(headline);
    expect(headline).toBeGreaterThanOrEqual(0);
    expect(messageText(digestMessage(timeSeriesView()))).not.toContain('pacing');
  });
});
