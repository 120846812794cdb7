import { formatReportProblem, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const messages = (text: string) =>
  parseReportText(text, { file: 'reports/x.yaml', id: 'x', now }).problems.map(formatReportProblem);

const GOOD = `title: Daily
query:
  metrics: [spend, installs, impressions]
  dimensions: [siteBundle]
  range: last_14_days
alerts:
  - id: spend-without-installs
`;

describe('pivotbot validate: compound rules, equals and a rule range', () => {
  it('accepts all: conditions with equals and a range of the rule’s own', () => {
    const text = `${GOOD}    range: yesterday\n    all:\n      - { metric: spend, above: 50 }\n      - { metric: installs, equals: 0 }\n`;
    expect(messages(text)).toEqual([]);
  });

  it.each([
    [
      'an unknown metric inside a condition, with its position and a suggestion',
      `    all:\n      - { metric: spend, above: 50 }\n      - { metric: instals, equals: 0 }\n`,
      /^reports\/x\.yaml:10:19: alerts\[0\]\.all\[1\]\.metric: "instals" is not a metric of this report.*Did you mean "installs"/,
    ],
    [
      'an unknown field inside a condition',
      `    all:\n      - { metric: spend, abov: 50 }\n      - { metric: installs, equals: 0 }\n`,
      /^reports\/x\.yaml:9:26: alerts\[0\]\.all\[0\]\.abov: unknown field "abov".*Did you mean "above"/,
    ],
    [
      'a misspelt all',
      `    metric: spend\n    above: 3\n    alll: []\n`,
      /^reports\/x\.yaml:10:5: alerts\[0\]\.alll: unknown field "alll".*Did you mean "all"/,
    ],
    [
      'a range that does not resolve',
      `    range: yesterdy\n    metric: spend\n    above: 3\n`,
      /^reports\/x\.yaml:8:12: alerts\[0\]\.range: .*yesterdy/,
    ],
    [
      'a metric next to all:',
      `    metric: spend\n    all:\n      - { metric: spend, above: 50 }\n      - { metric: installs, equals: 0 }\n`,
      /alerts\[0\]\.metric: a rule with all: names its metrics/,
    ],
  ])('refuses %s', (_name, rule, expected) => {
    const found = messages(GOOD + rule);
    expect(found[0]).toMatch(expected);
    // Only what follows from the same mistake may come with it (a condition left without its trigger).
    for (const more of found.slice(1)) expect(more).toMatch(/exactly one condition/);
  });
});
