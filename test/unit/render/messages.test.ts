import {
  ACTION_IDS,
  type AlertMessageInput,
  adhocMessage,
  alertMessage,
  cellText,
  digestMessage,
  errorMessage,
  jobProgressMessage,
  RANGE_ACTION_PATTERN,
  type SectionBlock,
  type SlackMessage,
  type TableBlock,
} from '../../../src/render/index.js';
import { hugeView, shareView, stackedView, timeSeriesView, topNView } from '../../support/renderFixtures.js';
import { buttonsOf, messageText, slackLimitViolations } from '../../support/renderLimits.js';

const chart = { url: 'daily-kpi.png', alt: 'Line chart of spend' };

const alertBase: AlertMessageInput = {
  state: 'opened',
  incidentId: 'inc-1',
  ruleId: 'cpi-spike',
  ruleName: 'CPI spike',
  reportId: 'daily-kpi',
  reportTitle: 'Daily KPIs',
  entity: 'Country BR',
  metric: { key: 'installsCpi', label: 'CPI', unit: 'currency', polarity: 'lower_is_better' },
  value: 2.71,
  condition: { kind: 'above', threshold: 2.4, recovery: 2.2 },
  rangeLabel: 'Yesterday (Thu 19 Nov 2026)',
  timezone: 'UTC',
  openedAt: '2026-11-20T09:00:00Z',
  now: '2026-11-20T12:10:00Z',
  mentions: ['U123', 'S0UAONCALL', 'here'],
};

const builders: Array<[string, () => SlackMessage]> = [
  ['digest', () => digestMessage(timeSeriesView(), { chart })],
  ['digest (huge)', () => digestMessage(hugeView(), { chart })],
  ['digest (monospace, huge)', () => digestMessage(hugeView(), { tableStyle: 'monospace', tableRows: 200 })],
  ['digest (stacked)', () => digestMessage(stackedView())],
  ['digest (share)', () => digestMessage(shareView(), { chart })],
  ['ad-hoc', () => adhocMessage(topNView(), { query: 'spend by country', userId: 'U1' })],
  ['ad-hoc (huge)', () => adhocMessage(hugeView(), { query: 'x'.repeat(5000), tableRows: 500 })],
  [
    'job running',
    () =>
      jobProgressMessage({
        jobId: 'j1',
        title: 'Weekly',
        status: 'RUNNING',
        startedAt: '2026-11-20T09:00:00Z',
        now: '2026-11-20T09:01:05Z',
      }),
  ],
  [
    'job failed (long error)',
    () =>
      jobProgressMessage({
        jobId: 'j1',
        title: 'W',
        status: 'FAILED',
        error: 'e'.repeat(9000),
        startedAt: '2026-11-20T09:00:00Z',
        now: '2026-11-20T09:01:05Z',
      }),
  ],
  [
    'error',
    () =>
      errorMessage({
        userMessage: 'Unknown metric "instals".',
        suggestions: ['installs'],
        hint: 'See /pivot help',
        code: 'QUERY_UNKNOWN',
      }),
  ],
  ['error (long)', () => errorMessage({ userMessage: 'x'.repeat(10_000), suggestions: Array(40).fill('s') })],
  ['alert opened', () => alertMessage(alertBase)],
  ['alert updated', () => alertMessage({ ...alertBase, state: 'updated', value: 2.85, previousValue: 2.71 })],
  ['alert resolved', () => alertMessage({ ...alertBase, state: 'resolved', value: 2.1 })],
  ['alert (huge names)', () => alertMessage({ ...alertBase, ruleName: 'r'.repeat(5000), entity: 'e'.repeat(5000) })],
];

describe.each(builders)('%s', (_name, build) => {
  it("stays within Slack's limits", () => {
    expect(slackLimitViolations(build())).toEqual([]);
  });
  it('has notification text', () => {
    expect(build().text.length).toBeGreaterThan(0);
  });
});

describe('digestMessage', () => {
  const message = digestMessage(timeSeriesView(), { chart });
  const types = message.blocks.map((b) => b.type);

  it('opens with the header, then context with range, time zone and filters', () => {
    expect(types[0]).toBe('header');
    const text = messageText(message);
    expect(text).toContain('Last 7 days (13–19 Nov 2026)');
    expect(text).toContain('UTC');
    expect(text).toContain('countryCode in (US, BR) · mobile');
  });

  it('shows headline KPIs with value, delta and an arrow coloured by polarity', () => {
    const fields = (message.blocks.find((b) => b.type === 'section' && b.fields) as SectionBlock).fields ?? [];
    expect(fields).toHaveLength(3);
    expect(fields[0]?.text).toMatch(/^\*Spend\*\n\$31,599\.79\n:white_circle: ▲ \+23\.0%/);
    // Installs went down: bad news for a higher_is_better metric.
    expect(fields[1]?.text).toContain(':red_circle: ▼');
    // CPI went up: bad news for a lower_is_better metric.
    expect(fields[2]?.text).toContain(':red_circle: ▲');
  });

  it('has the chart, a table, and buttons with stable action ids and JSON values', () => {
    expect(types).toEqual(expect.arrayContaining(['image', 'table', 'actions']));
    const image = message.blocks.find((b) => b.type === 'image');
    expect(image).toMatchObject({ image_url: 'daily-kpi.png', alt_text: chart.alt });
    const buttons = buttonsOf(message);
    const ids = buttons.map((e) => e.action_id);
    expect(ids).toEqual([
      ACTION_IDS.rerun,
      'pivot_range_yesterday',
      'pivot_range_last_7_days',
      'pivot_range_last_30_days',
      ACTION_IDS.csv,
      // The view has a comparison: it can say why it moved.
      ACTION_IDS.explain,
    ]);
    expect(ids.filter((id) => RANGE_ACTION_PATTERN.test(id ?? ''))).toHaveLength(3);
    expect(JSON.parse(buttons[1]?.value ?? '')).toEqual({ reportId: 'daily-kpi', range: 'yesterday' });
  });

  it('uses an uploaded file when given one', () => {
    const uploaded = digestMessage(timeSeriesView(), { chart: { slackFileId: 'F123', alt: 'a' } });
    expect(uploaded.blocks.find((b) => b.type === 'image')).toMatchObject({ slack_file: { id: 'F123' } });
  });

  it('shows nulls as an em dash in the table', () => {
    const table = digestMessage(topNView()).blocks.find((b): b is TableBlock => b.type === 'table');
    const lastRow = table?.rows[table.rows.length - 1]?.map(cellText);
    expect(lastRow).toContain('—');
  });

  it('says "Top 10 of 42 rows" when the report cut rows', () => {
    expect(messageText(digestMessage(topNView()))).toContain('Top 10 of 42 rows');
  });

  it('escapes mrkdwn control characters in report texts', () => {
    const view = timeSeriesView();
    view.filtersText = 'campaign = <!channel> & <https://evil|click>';
    const text = messageText(digestMessage(view));
    expect(text).toContain('&lt;!channel&gt; &amp; &lt;https://evil|click&gt;');
    expect(text).not.toContain('<!channel>');
  });

  it('notifies with the headline numbers', () => {
    expect(message.text).toBe(
      'Daily KPIs · Last 7 days (13–19 Nov 2026): Spend $31.6K (+23.0%), Installs 13.7K (-5.7%), CPI $2.31 (+30.5%)',
    );
  });
});

describe('when content is cut', () => {
  it('says so and points at the CSV', () => {
    const message = digestMessage(hugeView(), { chart, tableRows: 500 });
    const text = messageText(message);
    expect(text).toContain("Cut to fit Slack's limits");
    expect(text).toContain('2 headline KPIs beyond 10');
    expect(text).toContain('columns');
    expect(text).toContain('the CSV `daily-kpi.csv`');
    const table = message.blocks.find((b): b is TableBlock => b.type === 'table');
    expect(table?.rows.length).toBeLessThanOrEqual(100);
    expect(table?.rows[0]).toHaveLength(20);
  });

  it('cuts the monospace fallback to one section and says so', () => {
    const message = digestMessage(hugeView(), { tableStyle: 'monospace', tableRows: 200 });
    const code = message.blocks.find((b) => b.type === 'section' && b.text?.text.startsWith('```')) as SectionBlock;
    expect(code.text?.text.length).toBeLessThanOrEqual(3000);
    expect(code.text?.text.endsWith('```')).toBe(true);
    expect(messageText(message)).toMatch(/rows beyond \d+/);
  });

  it('adds no note when everything fits', () => {
    expect(messageText(digestMessage(timeSeriesView()))).not.toContain('Cut to fit');
  });
});

describe('alertMessage', () => {
  it('opens with the rule, the value against the threshold, mentions as Slack syntax, and ack/snooze buttons', () => {
    const message = alertMessage(alertBase);
    const text = messageText(message);
    expect(text).toContain('*CPI spike*');
    expect(text).toContain('*CPI* for Country BR is *$2.71*, above $2.40.');
    expect(text).toContain('<@U123> <!subteam^S0UAONCALL> <!here>');
    const actions = message.blocks.find((b) => b.type === 'actions');
    expect(actions?.type === 'actions' && actions.elements.map((e) => e.action_id)).toEqual([
      ACTION_IDS.alertAck,
      ACTION_IDS.alertSnooze1h,
      ACTION_IDS.alertSnooze4h,
      ACTION_IDS.alertSnooze24h,
    ]);
  });

  it('updates with the previous value, and resolves without buttons', () => {
    expect(messageText(alertMessage({ ...alertBase, state: 'updated', value: 2.85, previousValue: 2.71 }))).toContain(
      'is *$2.85* (was $2.71)',
    );
    const resolved = alertMessage({ ...alertBase, state: 'resolved', value: 2.1 });
    expect(messageText(resolved)).toContain('back at or below $2.20: *$2.10*');
    expect(messageText(resolved)).toContain('after 3 h 10 min');
    expect(resolved.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it('describes relative-change rules with the comparison value', () => {
    const message = alertMessage({
      ...alertBase,
      condition: { kind: 'change', above: 0.3, comparisonValue: 2, change: 0.355, against: 'same period last week' },
    });
    expect(messageText(message)).toContain('up 35.5% vs same period last week ($2.00); alert on more than +30.0%');
  });
});

describe('job and error messages', () => {
  it('shows the job state and elapsed time', () => {
    const running = jobProgressMessage({
      jobId: 'j-42',
      title: 'Weekly',
      status: 'RUNNING',
      startedAt: '2026-11-20T09:00:00Z',
      now: '2026-11-20T09:01:05Z',
    });
    expect(messageText(running)).toContain('is running');
    expect(messageText(running)).toContain('elapsed 1 min 05 s');
    const ready = jobProgressMessage({
      jobId: 'j-42',
      title: 'Weekly',
      status: 'READY',
      resultName: 'weekly.csv',
      startedAt: '2026-11-20T09:00:00Z',
      now: '2026-11-20T09:00:09Z',
    });
    expect(messageText(ready)).toContain('the result is in `weekly.csv`');
  });

  it('shows the user message, suggestions and a hint', () => {
    const text = messageText(
      errorMessage({
        userMessage: 'Unknown metric "instals".',
        suggestions: ['installs'],
        hint: 'Try /pivot help',
        code: 'Q1',
      }),
    );
    expect(text).toContain('Unknown metric \\"instals\\".');
    expect(text).toContain('Did you mean `installs`?');
    expect(text).toContain('Try /pivot help');
  });
});
