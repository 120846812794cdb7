import {
  type AlertMessageInput,
  alertChartSpec,
  alertChartView,
  alertParentMessage,
  alertReplyMessage,
  alertsSummaryMessage,
  buildChartConfig,
  chartLimits,
  mentionText,
  SNOOZE_ACTIONS,
} from '../../../src/render/index.js';
import { buttonsOf, messageText, slackLimitViolations } from '../../support/renderLimits.js';

const base: AlertMessageInput = {
  incidentId: 'inc_1',
  ruleId: 'cpi-too-high',
  ruleName: 'CPI above target',
  reportId: 'daily-kpi',
  reportTitle: 'Daily KPIs',
  severity: 'critical',
  entity: 'Platform IOS',
  metric: { key: 'installsCpi', label: 'CPI', unit: 'currency', polarity: 'lower_is_better' },
  value: 7.1,
  condition: { kind: 'above', threshold: 6, recovery: 5 },
  rangeLabel: 'Yesterday (Thu 19 Nov 2026)',
  timezone: 'America/Sao_Paulo',
  openedAt: '2026-11-20T12:00:00Z',
  now: '2026-11-20T12:00:00Z',
  mentions: ['S0UAONCALL'],
};
const anomaly: AlertMessageInput['condition'] = {
  kind: 'anomaly',
  low: 1.2,
  high: 2.9,
  median: 2.05,
  score: 7.4,
  baseline: 'the same weekday of the last 4 weeks',
};

describe('alert parent', () => {
  it.each([
    [
      'open',
      base,
      [
        '*CPI above target*',
        '*CPI* for Platform IOS is *$7.10*, above $6.00.',
        'critical',
        'open since Fri 20 Nov 09:00',
        '<!subteam^S0UAONCALL>',
      ],
    ],
    [
      'open (anomaly)',
      { ...base, condition: anomaly, value: 4.2 },
      ['outside the expected $1.20 – $2.90 (usual $2.05, the same weekday of the last 4 weeks)'],
    ],
    [
      'acknowledged',
      { ...base, acknowledgedBy: 'U024BE7LH', acknowledgedAt: '2026-11-20T13:15:00Z', now: '2026-11-20T13:15:00Z' },
      [':eyes: acknowledged by <@U024BE7LH> at Fri 20 Nov 10:15'],
    ],
    [
      'snoozed',
      { ...base, snoozedUntil: '2026-11-20T16:00:00Z', now: '2026-11-20T12:00:00Z' },
      [':zzz: snoozed until Fri 20 Nov 13:00'],
    ],
    [
      'resolved',
      { ...base, value: 4.8, resolvedAt: '2026-11-20T18:30:00Z', now: '2026-11-20T18:30:00Z' },
      [
        ':white_check_mark: *Resolved: CPI above target*',
        'back at or below $5.00: *$4.80*',
        'Resolved Fri 20 Nov 15:30 after 6 h 30 min',
      ],
    ],
  ])('%s', (_name, input, expected) => {
    const message = alertParentMessage(input);
    for (const text of expected) expect(messageText(message)).toContain(text);
    expect(slackLimitViolations(message)).toEqual([]);
  });

  it('offers Acknowledge and three snooze lengths while open, only snoozes once acknowledged, none when resolved', () => {
    const ids = (input: AlertMessageInput) =>
      buttonsOf(alertParentMessage(input)).map((e) => [e.action_id, JSON.parse(e.value ?? '{}').hours]);
    expect(ids(base)).toEqual([['alert_ack', undefined], ...SNOOZE_ACTIONS.map(([h, id]) => [id, h])]);
    expect(ids({ ...base, acknowledgedBy: 'U1' }).map(([id]) => id)).toEqual(SNOOZE_ACTIONS.map(([, id]) => id));
    expect(ids({ ...base, resolvedAt: base.now })).toEqual([]);
  });

  it('says how long it has been open only once that is a minute or more', () => {
    expect(messageText(alertParentMessage(base))).not.toMatch(/09:00 \(/);
    const later = messageText(alertParentMessage({ ...base, now: '2026-11-20T14:10:00Z' }));
    expect(later).toContain('open since Fri 20 Nov 09:00 (2 h 10 min)');
  });

  it('says so when it reopened', () => {
    expect(messageText(alertParentMessage({ ...base, reopenCount: 2 }))).toContain('(reopened 2×)');
  });
});

describe('alert replies', () => {
  it.each([
    [
      'reminder',
      { now: '2026-11-20T18:00:00Z', previousValue: 7.0 },
      'Still breached after 6 h 00 min: *CPI* for Platform IOS is *$7.10* (was $7.00)',
    ],
    ['bigMove', { value: 8.4, previousValue: 7.1 }, 'Large move: *CPI* for Platform IOS is now *$8.40* (was $7.10)'],
    ['reopened', {}, 'Reopened: *CPI* for Platform IOS is *$7.10* again, above $6.00.'],
    [
      'resolved',
      { value: 4.9, resolvedAt: '2026-11-20T14:00:00Z' },
      'Resolved Fri 20 Nov 11:00 after 2 h 00 min: *CPI* for Platform IOS is back at or below $5.00: *$4.90*.',
    ],
  ] as const)('%s', (kind, extra, expected) => {
    const message = alertReplyMessage({ ...base, ...extra }, kind);
    expect(messageText(message)).toContain(expected);
    expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it('mentions again only when reopening', () => {
    expect(messageText(alertReplyMessage(base, 'reopened'))).toContain('<!subteam^S0UAONCALL>');
    expect(messageText(alertReplyMessage(base, 'reminder'))).not.toContain('subteam');
  });

  it('names the entity’s owners after the rule’s mentions, in the parent and when reopening', () => {
    const owned = { ...base, owners: ['U0ANA0001'] };
    expect(messageText(alertParentMessage(owned))).toContain('<!subteam^S0UAONCALL>  ·  owner <@U0ANA0001>');
    expect(messageText(alertReplyMessage(owned, 'reopened'))).toContain('owner <@U0ANA0001>');
    expect(messageText(alertReplyMessage(owned, 'reminder'))).not.toContain('U0ANA0001');
    const onlyOwners = messageText(alertParentMessage({ ...base, mentions: [], owners: ['U0ANA0001', 'S0GROWTH1'] }));
    expect(onlyOwners).toContain('owners <@U0ANA0001> <!subteam^S0GROWTH1>');
    expect(messageText(alertParentMessage({ ...owned, resolvedAt: '2026-11-20T15:00:00Z' }))).not.toContain(
      'U0ANA0001',
    );
  });
});

describe('mentionText', () => {
  it.each([
    ['U024BE7LH', '<@U024BE7LH>'],
    ['W024BE7LH', '<@W024BE7LH>'],
    ['S0614TZR7', '<!subteam^S0614TZR7>'],
    ['here', '<!here>'],
    ['channel', '<!channel>'],
    ['<@U1AB>', '<@U1AB>'],
    ['@ua-oncall <b>', '@ua-oncall &lt;b&gt;'],
  ])('%s → %s', (id, expected) => {
    expect(mentionText(id)).toBe(expected);
  });
});

describe('alertsSummaryMessage', () => {
  const now = '2026-11-20T12:00:00Z';
  const rule = { reportTitle: 'Daily KPIs', ruleId: 'cpi-too-high', ruleName: 'CPI above target', openIncidents: 0 };

  it('never says all clear about a rule that was never evaluated', () => {
    const text = messageText(alertsSummaryMessage({ rules: [rule], open: [], now, timezone: 'UTC' }));
    expect(text).toContain('No rule has been evaluated yet');
    expect(text).toContain('`cpi-too-high` (Daily KPIs): not evaluated yet');
    expect(text).not.toContain(':white_check_mark:');
  });

  it('says how many rules ran and when, and which did not', () => {
    const ran = { ...rule, ruleId: 'ctr-low', lastEvaluatedAt: '2026-11-20T11:30:00Z', evaluated: 12, skipped: 2 };
    const text = messageText(alertsSummaryMessage({ rules: [ran, rule], open: [], now, timezone: 'UTC' }));
    expect(text).toContain('No open incidents among the 1 evaluated rule; *1 not evaluated yet*');
    expect(text).toContain('`ctr-low` (Daily KPIs): last ran Fri 20 Nov 11:30 · 12 checked, 2 skipped');
    expect(text).toContain('1 of 2 evaluated');
  });

  it('gives the all-clear only when every rule ran', () => {
    const ran = { ...rule, lastEvaluatedAt: '2026-11-20T11:30:00Z', evaluated: 3 };
    expect(messageText(alertsSummaryMessage({ rules: [ran], open: [], now, timezone: 'UTC' }))).toContain(
      ':white_check_mark: No open incidents; all 1 rule evaluated.',
    );
  });

  it('lists open incidents with report, rule, entity, value, since, state and the thread', () => {
    const open = [
      {
        reportTitle: 'Daily KPIs',
        ruleName: 'CPI above target',
        unit: 'currency' as const,
        threadUrl: 'https://example.slack.com/archives/C1/p1700000000000100',
        incident: {
          entityKey: 'appPlatform=IOS',
          entityLabel: 'Platform IOS',
          openedAt: '2026-11-20T09:00:00Z',
          lastValue: 7.1,
          acknowledgedBy: 'U1AB',
        },
      },
    ];
    const ran = { ...rule, lastEvaluatedAt: '2026-11-20T11:30:00Z', openIncidents: 1 };
    const message = alertsSummaryMessage({ rules: [ran], open, now, timezone: 'UTC' });
    expect(messageText(message)).toContain(
      '• *CPI above target* (Daily KPIs): Platform IOS · $7.10, since Fri 20 Nov 09:00 (3 h 00 min) · acknowledged by <@U1AB> · <https://example.slack.com/archives/C1/p1700000000000100|thread>',
    );
    expect(message.text).toBe('1 open alert incident(s)');
    expect(slackLimitViolations(message)).toEqual([]);
  });

  it('stays within Slack limits with hundreds of incidents', () => {
    const many = Array.from({ length: 300 }, (_, n) => ({
      reportTitle: 'r'.repeat(200),
      ruleName: 'n'.repeat(200),
      incident: { entityKey: `k${n}`, entityLabel: 'e'.repeat(300), openedAt: now },
    }));
    const message = alertsSummaryMessage({ rules: [], open: many, now, timezone: 'UTC' });
    expect(slackLimitViolations(message)).toEqual([]);
    expect(messageText(message)).toMatch(/…and 2\d\d more\./);
    expect(messageText(message)).not.toContain('Cut to fit');
  });
});

describe('chartLimits', () => {
  it.each([
    [{ kind: 'above' as const, threshold: 6 }, { threshold: 6 }],
    [{ kind: 'below' as const, threshold: 2, recovery: 3 }, { threshold: 2 }],
    // A change rule's trigger is a percentage of another period: no line over the recent days.
    [{ kind: 'change' as const, above: 0.3, comparisonValue: 100, against: 'previous period' }, {}],
    [
      { kind: 'anomaly' as const, low: 4, high: 6.5, median: 5, score: 4, baseline: 'the same weekday' },
      { band: { low: 4, high: 6.5 } },
    ],
  ])('%j → %j', (condition, expected) => {
    expect(chartLimits(condition)).toEqual(expected);
  });
});

describe('alertChartSpec', () => {
  const points = ['2026-11-17', '2026-11-18', '2026-11-19'].map((d, i) => ({
    at: `${d}T00:00:00Z`,
    value: [5.1, 5.6, 7.1][i] ?? null,
  }));
  const metric = { key: 'installsCpi', label: 'CPI', unit: 'currency' as const, polarity: 'lower_is_better' as const };

  it('draws the metric with a dashed threshold line', () => {
    const spec = alertChartSpec({
      title: 'CPI above target',
      metric,
      points,
      threshold: 6,
      entity: 'Platform IOS',
      timezone: 'UTC',
    });
    const datasets = spec?.config.data.datasets ?? [];
    expect(datasets.map((d) => d.label)).toEqual(['CPI', 'threshold $6.00']);
    expect(datasets[0]?.data).toEqual([5.1, 5.6, 7.1]);
    expect(datasets[1]?.data).toEqual([6, 6, 6]);
    expect((datasets[1] as { borderDash?: number[] }).borderDash).toEqual([4, 4]);
    expect(spec?.alt).toBe(
      'Line chart of CPI for Platform IOS over the last 3 evaluations, threshold $6.00; latest $7.10.',
    );
  });

  it('draws both edges of an anomaly band', () => {
    const spec = alertChartSpec({ title: 'CPI unusual', metric, points, band: { low: 4, high: 6.5 }, timezone: 'UTC' });
    const datasets = spec?.config.data.datasets ?? [];
    expect(datasets.map((d) => [d.label, d.data[0]])).toEqual([
      ['CPI', 5.1],
      ['expected ≤ $6.50', 6.5],
      ['expected ≥ $4.00', 4],
    ]);
  });

  it('gives the chart process (which draws views) both edges of the band, the crossed lower one too', () => {
    const view = alertChartView({ title: 'Spend unusual', metric, points, band: { low: 6, high: 9 }, timezone: 'UTC' });
    expect(view?.chart?.thresholds?.map((t) => [t.label, t.value])).toEqual([
      ['expected ≤ $9.00', 9],
      ['expected ≥ $6.00', 6],
    ]);
    const datasets = view ? (buildChartConfig(view)?.config.data.datasets ?? []) : [];
    expect(datasets.map((d) => d.label)).toEqual(['CPI', 'expected ≤ $9.00', 'expected ≥ $6.00']);
  });

  it('gives no chart for fewer than two values', () => {
    expect(
      alertChartSpec({ title: 'x', metric, points: points.slice(0, 1), threshold: 6, timezone: 'UTC' }),
    ).toBeNull();
  });
});
