import { formatReportProblem, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const parsed = (text: string) => parseReportText(text, { file: 'reports/x.yaml', id: 'x', now });
const messages = (text: string) => parsed(text).problems.map(formatReportProblem);

const BASE = `title: Campaigns
query:
  metrics: [spend, installs]
  dimensions: [campaign, countryCode]
owners:
`;

describe('pivotbot validate: owners', () => {
  it('accepts ids and lists of ids by dimension value, and reads one id as a list of one', () => {
    const text = `${BASE}  campaign:\n    "1001": U024BE7LH\n    1002: [W0ANA0001, S0614TZR7]\n  countrycode: { BR: "<!subteam^S0LATAM01>" }\n`;
    const result = parsed(text);
    expect(result.problems.map(formatReportProblem)).toEqual([]);
    expect(result.report?.definition.owners).toEqual({
      campaign: { '1001': ['U024BE7LH'], '1002': ['W0ANA0001', 'S0614TZR7'] },
      countrycode: { BR: ['<!subteam^S0LATAM01>'] },
    });
  });

  it.each([
    [
      'a misspelt dimension, with its position and a suggestion',
      `  campain:\n    "1001": U024BE7LH\n`,
      /^reports\/x\.yaml:6:3: owners\.campain: "campain" is not a dimension of this report \(the query has campaign, countryCode\)\. Did you mean "campaign"\?/,
    ],
    [
      'a dimension the query does not group by',
      `  appId:\n    "101": U024BE7LH\n`,
      /^reports\/x\.yaml:6:3: owners\.appId: "appId" is not a dimension of this report/,
    ],
    [
      'a name instead of an id',
      `  campaign:\n    "1001": "@ana"\n`,
      /^reports\/x\.yaml:7:13: owners\.campaign\.1001: "@ana" is not a Slack id\. An owner is a member id/,
    ],
    [
      'here',
      `  campaign:\n    "1001": [U024BE7LH, here]\n`,
      /owners\.campaign\.1001\[1\]: "here" is not a person or a team/,
    ],
  ])('refuses %s', (_name, owners, expected) => {
    const found = messages(BASE + owners);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(expected);
  });
});
