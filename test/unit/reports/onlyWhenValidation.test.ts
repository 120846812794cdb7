import { formatReportProblem, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const messages = (text: string) =>
  parseReportText(text, { file: 'reports/x.yaml', id: 'x', now }).problems.map(formatReportProblem);
const report = (present: string, mode = 'sync') =>
  `title: Daily\nquery:\n  metrics: [spend, installs]\npresent:\n${present}mode: ${mode}\n`;

describe('pivotbot validate: present.onlyWhen', () => {
  it('accepts a threshold, incidents and a weekday', () => {
    expect(
      messages(
        report('  compare: same_period_last_week\n  onlyWhen: { moved: 15%, incidents: false, allQuiet: mon }\n'),
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'no comparison',
      '  onlyWhen: {}\n',
      'sync',
      /^reports\/x\.yaml:5:13: present\.onlyWhen: onlyWhen .*set present\.compare/,
    ],
    [
      'an async report',
      '  compare: previous_period\n  onlyWhen: {}\n',
      'async',
      /present\.onlyWhen: onlyWhen needs the comparison period/,
    ],
    [
      'a bare number',
      '  compare: previous_period\n  onlyWhen: { moved: 0.15 }\n',
      'sync',
      /present\.onlyWhen\.moved: must be a percentage/,
    ],
    [
      'a misspelt day',
      '  compare: previous_period\n  onlyWhen: { allQuiet: monday }\n',
      'sync',
      /present\.onlyWhen\.allQuiet: .*mon/,
    ],
    [
      'a misspelt field',
      '  compare: previous_period\n  onlyWhen: { moves: 15% }\n',
      'sync',
      /unknown field "moves".*Did you mean "moved"/,
    ],
  ])('refuses %s', (_name, present, mode, expected) => {
    const found = messages(report(present, mode));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(expected);
  });
});
