import { formatReportProblem, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const GOOD = `title: Daily
query:
  metrics: [spend, installs, installsCpi]
  dimensions: [countryCode]
  range: yesterday
present:
  compare: previous_period
alerts:
  - id: a
    metric: installsCpi
`;
const parse = (rule: string) => parseReportText(`${GOOD}${rule}`, { file: 'reports/x.yaml', id: 'x', now });
const messages = (rule: string) => parse(rule).problems.map(formatReportProblem);
const ruleOf = (rule: string) => {
  const { report, problems } = parse(rule);
  expect(problems.map(formatReportProblem)).toEqual([]);
  const first = report?.definition.alerts[0];
  if (!first) throw new Error('no rule');
  return first;
};

describe('alert rule schema: accepted shapes', () => {
  it.each([
    [
      'above with defaults',
      '    above: 6\n',
      { above: 6, on: 'entity', consecutive: 1, severity: 'warning', mentions: [] },
    ],
    [
      'change with percentages',
      '    change: { vs: same_period_last_week, above: 30% }\n',
      {
        change: { vs: 'same_period_last_week', above: 0.3 },
      },
    ],
    [
      'change both sides',
      "    change: { above: '+12.5%', below: -20% }\n",
      {
        change: { vs: 'previous_period', above: 0.125, below: -0.2 },
      },
    ],
    [
      'legacy change (up)',
      '    change: { percent: 30, direction: up, against: previous_period }\n',
      {
        change: { vs: 'previous_period', above: 0.3 },
      },
    ],
    [
      'legacy change (any)',
      '    change: { percent: 40 }\n',
      { change: { vs: 'previous_period', above: 0.4, below: -0.4 } },
    ],
    ['anomaly defaults', '    anomaly: {}\n', { anomaly: { baseline: 'same_weekday', weeks: 4, sensitivity: 3 } }],
    [
      'anomaly by hour',
      '    anomaly: { baseline: same_hour, weeks: 2, sensitivity: 4.5, direction: up }\n',
      {
        anomaly: { baseline: 'same_hour', weeks: 2, sensitivity: 4.5, direction: 'up' },
      },
    ],
    ['on total', '    above: 6\n    on: total\n', { on: 'total' }],
    [
      'ids as mentions',
      '    above: 6\n    mentions: [U024BE7LH, S0614TZR7, here, "<@W1234ABC>", "<!subteam^S0614TZR7>", "<!channel>"]\n',
      {
        mentions: ['U024BE7LH', 'S0614TZR7', 'here', '<@W1234ABC>', '<!subteam^S0614TZR7>', '<!channel>'],
      },
    ],
    [
      'own check schedule',
      '    above: 6\n    check: { cron: "*/30 * * * *", timezone: Europe/Berlin }\n',
      {
        check: { cron: '*/30 * * * *', timezone: 'Europe/Berlin' },
      },
    ],
    ['recovery for change', '    change: { above: 30% }\n    recovery: 15%\n', { recovery: { percent: 0.15 } }],
    ['recovery for above', '    above: 6\n    recovery: 5\n', { recovery: 5 }],
  ])('%s', (_name, rule, expected) => {
    expect(ruleOf(rule)).toMatchObject(expected);
  });
});

describe('alert rule schema: file:line errors', () => {
  it.each([
    [
      'a name as mention',
      '    above: 6\n    mentions: ["@ua-oncall"]\n',
      /^reports\/x\.yaml:12:16: alerts\[0\]\.mentions\[0\]: "@ua-oncall" is not a Slack id\. .*Copy member ID.*Copy group ID/,
    ],
    [
      'two conditions',
      '    above: 6\n    anomaly: {}\n',
      /alerts\[0\]: give exactly one condition: above, below, equals, change or anomaly/,
    ],
    ['no condition', '    severity: info\n', /exactly one condition/],
    ['bare number as percent', '    change: { above: 30 }\n', /alerts\[0\]\.change/],
    ['rise written as fall', '    change: { above: -30% }\n', /alerts\[0\]\.change\.above: above is a rise/],
    ['fall written as rise', '    change: { below: 20% }\n', /alerts\[0\]\.change\.below: below is a fall/],
    [
      'by is gone',
      '    above: 6\n    by: countryCode\n',
      /^reports\/x\.yaml:12:9: alerts\[0\]\.by: by is no longer used/,
    ],
    [
      'numeric recovery for change',
      '    change: { above: 30% }\n    recovery: 0.15\n',
      /recovery: for a change rule write recovery as a percentage/,
    ],
    ['recovery beyond trigger', '    above: 6\n    recovery: 7\n', /recovery: must not be above the trigger \(6\)/],
    [
      'recovery on anomaly',
      '    anomaly: {}\n    recovery: 2\n',
      /recovery: an anomaly resolves when back in its band/,
    ],
    [
      'bad check zone',
      '    above: 6\n    check: { cron: "0 * * * *", timezone: Mars/Olympus }\n',
      /alerts\[0\]\.check\.timezone: "Mars\/Olympus" is not an IANA time zone/,
    ],
    ['bad cron', '    above: 6\n    check: { cron: "every hour" }\n', /alerts\[0\]\.check\.cron: .*cron expression/],
    ['unknown key', '    above: 6\n    sensitivty: 3\n', /unknown field "sensitivty"/],
    [
      'duplicate rule id',
      '    above: 6\n  - id: a\n    metric: spend\n    below: 1\n',
      /alerts\[1\]\.id: Another alert of this report is already called "a"/,
    ],
    ['anomaly weeks too few', '    anomaly: { weeks: 1 }\n', /alerts\[0\]\.anomaly\.weeks/],
  ])('%s', (_name, rule, pattern) => {
    const found = messages(rule);
    expect(found.some((m) => pattern.test(m))).toBe(true);
  });
});
