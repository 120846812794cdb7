import { formatReportProblem, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const parsed = (text: string) => parseReportText(text, { file: 'reports/x.yaml', id: 'x', now });
const messages = (text: string) => parsed(text).problems.map(formatReportProblem);

const BASE = `title: App 101
query:
  metrics: [spend, installs]
  filter: { appId: 101 }
`;

describe('pivotbot validate: budgets and pacing rules', () => {
  it('accepts monthly plans (currency USD by default) and a pacing rule with a tolerance', () => {
    const text = `${BASE}budgets:\n  months:\n    "2026-11": 120000\n    2026-12: 150000.5\nalerts:\n  - id: off-plan\n    pacing: { tolerance: 10% }\n`;
    const result = parsed(text);
    expect(result.problems.map(formatReportProblem)).toEqual([]);
    expect(result.report?.definition.budgets).toEqual({
      currency: 'USD',
      months: { '2026-11': 120000, '2026-12': 150000.5 },
    });
    expect(result.report?.definition.alerts[0]?.pacing).toEqual({ tolerance: 0.1 });
    const banded = parsed(text.replace('{ tolerance: 10% }', '{ tolerance: 10%, recovery: 4% }'));
    expect(banded.report?.definition.alerts[0]?.pacing).toEqual({ tolerance: 0.1, recovery: 0.04 });
  });

  it.each([
    [
      'a misspelt field of budgets, with a suggestion',
      'budgets:\n  monhts: { "2026-11": 1000 }\n',
      /^reports\/x\.yaml:6:3: budgets\.monhts: unknown field "monhts" \(allowed: currency, months\)\. Did you mean "months"\?/m,
    ],
    [
      'a month that is not YYYY-MM, pointing at the key',
      'budgets:\n  months:\n    "2026-11": 1000\n    "Nov 2026": 1000\n',
      /^reports\/x\.yaml:8:5: budgets\.months\.Nov 2026: "Nov 2026" is not a calendar month: write it YYYY-MM, like "2026-11"\./,
    ],
    [
      'a thirteenth month',
      'budgets:\n  months: { "2026-13": 1000 }\n',
      /budgets\.months\.2026-13: "2026-13" is not a calendar month/,
    ],
    [
      'a plan that is not a positive amount',
      'budgets:\n  months: { "2026-11": -5 }\n',
      /^reports\/x\.yaml:6:24: budgets\.months\.2026-11: -5: must be a positive amount, like 120000/,
    ],
    [
      'another currency',
      'budgets:\n  currency: EUR\n  months: { "2026-11": 1 }\n',
      /budgets\.currency: "EUR" is not allowed; use one of USD\./,
    ],
    ['no month at all', 'budgets:\n  months: {}\n', /budgets\.months: needs at least one month/],
    [
      'a pacing rule without budgets',
      'alerts:\n  - id: off-plan\n    pacing: { tolerance: 10% }\n',
      /^reports\/x\.yaml:7:13: alerts\[0\]\.pacing: a pacing rule needs the monthly plans: add budgets:/,
    ],
    [
      'a pacing rule with a threshold too',
      'budgets: { months: { "2026-11": 1 } }\nalerts:\n  - id: off-plan\n    metric: spend\n    pacing: { tolerance: 10% }\n',
      /alerts\[0\]\.metric: a pacing rule judges the month's spend forecast against its plan \(budgets:\); remove metric/,
    ],
    [
      'a tolerance written as a bare number',
      'budgets: { months: { "2026-11": 1 } }\nalerts:\n  - id: off-plan\n    pacing: { tolerance: 0.1 }\n',
      /alerts\[0\]\.pacing\.tolerance: must be a percentage/,
    ],
    [
      'a misspelt pacing field',
      'budgets: { months: { "2026-11": 1 } }\nalerts:\n  - id: off-plan\n    pacing: { tolerence: 10% }\n',
      /alerts\[0\]\.pacing\.tolerence: unknown field "tolerence" \(allowed: tolerance, recovery\)\. Did you mean "tolerance"\?/,
    ],
    [
      'a recovery band wider than the tolerance',
      'budgets: { months: { "2026-11": 1 } }\nalerts:\n  - id: off-plan\n    pacing: { tolerance: 10%, recovery: 12% }\n',
      /alerts\[0\]\.pacing\.recovery: must not be wider than the tolerance \(10%\)/,
    ],
    [
      'a recovery beside pacing instead of inside it',
      'budgets: { months: { "2026-11": 1 } }\nalerts:\n  - id: off-plan\n    recovery: 5%\n    pacing: { tolerance: 10% }\n',
      /alerts\[0\]\.recovery: a pacing rule writes its recovery band inside pacing: \{ tolerance: 10%, recovery: 5% \}/,
    ],
    [
      'a misspelt budgets at the top',
      'budget: { months: { "2026-11": 1 } }\n',
      /unknown field "budget" .*Did you mean "budgets"\?/,
    ],
  ])('refuses %s', (_name, extra, expected) => {
    const found = messages(BASE + extra);
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found.join('\n')).toMatch(expected);
  });
});
