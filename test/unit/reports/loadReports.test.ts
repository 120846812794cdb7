import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatReportProblem, loadReports, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const parse = (text: string, id = 'x') => parseReportText(text, { file: `reports/${id}.yaml`, id, now });
const messages = (text: string) => parse(text).problems.map(formatReportProblem);

const GOOD = `title: Daily
query:
  metrics: [spend, installs]
  dimensions: [countryCode]
  range: yesterday
`;

describe('the shipped reports', () => {
  it('all load without a problem', async () => {
    const { reports, problems } = await loadReports('reports', { now });
    expect(problems.map(formatReportProblem)).toEqual([]);
    expect(reports.length).toBeGreaterThanOrEqual(6);
    for (const report of reports) expect(report.definition.alerts.length).toBeGreaterThan(0);
  });
});

describe('parseReportText', () => {
  it('accepts a minimal definition and applies defaults', () => {
    const { report, problems } = parse(GOOD);
    expect(problems).toEqual([]);
    expect(report?.definition.mode).toBe('auto');
    expect(report?.definition.present.compare).toBe('none');
  });

  it('points at an unknown metric with line, column and a suggestion', () => {
    const text = 'title: Daily\nquery:\n  metrics:\n    - spend\n    - instals\n';
    expect(messages(text)).toEqual([
      'reports/x.yaml:5:7: query.metrics[1]: Unknown metric "instals". Did you mean "installs"?',
    ]);
  });

  it('points at an unknown key and suggests the right one', () => {
    const text = 'title: Daily\nquery:\n  metrics: [spend]\n  rnage: yesterday\n';
    const [message] = messages(text);
    expect(message).toMatch(/^reports\/x\.yaml:4:3: query\.rnage: unknown field "rnage"/);
    expect(message).toContain('Did you mean "range"?');
  });

  it('reports every problem of a file, not only the first', () => {
    const text = [
      'title: Daily',
      'mode: fast',
      'query:',
      '  metrics: [spend, clickz]',
      '  dimensions: [contryCode]',
      '  filter:',
      '    appid: 12',
      '    countryCod: US',
      '',
    ].join('\n');
    const found = messages(text);
    expect(found).toEqual([expect.stringMatching(/^reports\/x\.yaml:2:7: mode: "fast" is not allowed/)]);
    const fixed = messages(text.replace('mode: fast', 'mode: sync'));
    expect(fixed).toEqual([
      'reports/x.yaml:4:20: query.metrics[1]: Unknown metric "clickz". Did you mean "clicks" or "eclicks"?',
      'reports/x.yaml:5:16: query.dimensions[0]: Unknown dimension "contryCode". Did you mean "countryCode" or "countryName"?',
      expect.stringMatching(/^reports\/x\.yaml:8:17: query\.filter\.countryCod: .*Did you mean "countryCode"/),
    ]);
  });

  it('reports YAML syntax errors at their position', () => {
    const [message] = messages('title: Daily\nquery:\n  metrics: [spend\n');
    expect(message).toMatch(/^reports\/x\.yaml:\d+:\d+: YAML: /);
  });

  it('says which required field is missing', () => {
    expect(messages('query:\n  metrics: [spend]\n')).toEqual(['reports/x.yaml:1:1: missing required field "title"']);
  });

  it('checks references from present and alerts against the query', () => {
    const text = `${GOOD}present:\n  headline: [spend, instals]\nalerts:\n  - id: a\n    metric: cpi\n    above: 3\n`;
    const found = messages(text);
    expect(found[0]).toMatch(
      /^reports\/x\.yaml:7:21: present\.headline\[1\]: "instals" is not a metric.*Did you mean "installs"/,
    );
    expect(found[1]).toMatch(/^reports\/x\.yaml:10:13: alerts\[0\]\.metric: "cpi" is not a metric/);
  });

  it('rejects a rule with two conditions', () => {
    const text = `${GOOD}alerts:\n  - id: a\n    metric: spend\n    above: 3\n    below: 1\n`;
    expect(messages(text)[0]).toMatch(/alerts\[0\]: .*exactly one condition/);
  });

  it('rejects a bad range with suggestions', () => {
    expect(messages(GOOD.replace('range: yesterday', 'range: yesteday'))[0]).toMatch(
      /^reports\/x\.yaml:5:10: query\.range: .*Did you mean "yesterday"/,
    );
  });

  it('rejects a file name that is not kebab-case', () => {
    expect(parse(GOOD, 'Daily_KPI').problems[0]?.message).toMatch(/kebab-case/);
  });
});

describe('loadReports', () => {
  it('loads the good files even when another file is broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      await writeFile(join(dir, 'good.yaml'), GOOD);
      await writeFile(join(dir, 'bad.yaml'), 'title: x\nquery:\n  metrics: [nope]\n');
      await writeFile(join(dir, 'notes.txt'), 'ignored');
      const { reports, problems, broken } = await loadReports(dir, { now });
      expect(reports.map((r) => r.id)).toEqual(['good']);
      expect(broken).toEqual(['bad']);
      expect(problems).toHaveLength(1);
      expect(formatReportProblem(problems[0] as never)).toContain(`${join(dir, 'bad.yaml')}:3:13:`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('schema messages', () => {
  const first = (text: string) => messages(text)[0];

  it.each([
    [
      `${GOOD}alerts:\n  - id: a\n    metric: spend\n    abov: 3\n`,
      /^reports\/x\.yaml:9:5: alerts\[0\]\.abov: unknown field "abov".*Did you mean "above"/,
    ],
    [`${GOOD}schedule:\n  cron: "every day"\n`, /^reports\/x\.yaml:7:9: schedule\.cron: .*cron expression/],
    [`${GOOD}schedule:\n  at: "9am"\n`, /^reports\/x\.yaml:7:7: schedule\.at: .*24-hour time/],
    [
      `${GOOD}schedule:\n  cron: "0 9 * * *"\n  at: "09:00"\n`,
      /^reports\/x\.yaml:7:3: schedule: give either cron or at/,
    ],
    [`${GOOD}present:\n  compare: last_period\n`, /present\.compare: "last_period" is not allowed.*previous_period/],
    [`${GOOD}present:\n  top: ten\n`, /^reports\/x\.yaml:7:8: present\.top: must be a number, got a string "ten"/],
    [
      GOOD.replace('metrics: [spend, installs]', 'metrics: [spend, [installs]]'),
      /query\.metrics\[1\]: \["installs"\] must be a metric name, or \{ name, args, as \}/,
    ],
    [
      GOOD.replace('metrics: [spend, installs]', 'metrics: [spend, { name: installs, args: { attrTouch: CLIK } }]'),
      /query\.metrics\[1\]\.args\.attrTouch: .*Did you mean "CLICK"/,
    ],
    [`${GOOD}deliver:\n  channels: [general]\n`, /deliver\.channels\[0\]: .*#channel-name/],
    [`title: a\ntitle: b\nquery:\n  metrics: [spend]\n`, /^reports\/x\.yaml:2:1: YAML: Map keys must be unique/],
    [
      GOOD.replace('range: yesterday', 'range: yesterday\n  timezone: Mars/Base'),
      /query\.timezone: "Mars\/Base" is not an IANA time zone/,
    ],
    [
      `${GOOD}mode: async\n`.replace('[spend, installs]', '[{ name: installs, args: { attrTouch: CLICK } }]'),
      /^reports\/x\.yaml:6:7: mode: mode async runs plain/,
    ],
    [
      GOOD.replace('dimensions: [countryCode]', 'dimensions: [siteBundle, city]'),
      /query\.dimensions: siteBundle cannot be queried together with city/,
    ],
  ])('%#: %s', (text, message) => {
    expect(first(text)).toMatch(message);
  });
});
