/**
 * `/pivot show <report>` prints each subscription's timing as the scheduler runs it and as
 * `/pivot schedule` prints it: its own `at` (with days and zone) or `cron` (with zone), the legacy
 * `schedule`, or the report's own schedule; a timing that cannot run says why.
 */
import { type LoadedReport, parseReportText } from '../../../../../src/reports/index.js';
import { showMessage } from '../../../../../src/slack/app/screens/infoMessages.js';
import { scheduleLineText, scheduleOverview } from '../../../../../src/slack/app/screens/scheduleMessages.js';
import type { Subscription } from '../../../../../src/store/index.js';

const now = new Date('2026-11-20T12:00:00Z');

function report(schedule: string): LoadedReport {
  const text = `title: Daily KPIs\nquery:\n  metrics: [spend]\n  range: yesterday\n  timezone: America/Sao_Paulo\n${schedule}`;
  const parsed = parseReportText(text, { file: 'reports/daily-kpi.yaml', id: 'daily-kpi', now });
  if (!parsed.report) throw new Error(JSON.stringify(parsed.problems));
  return parsed.report;
}

const subscription = (channel: string, timing: Partial<Subscription>): Subscription => ({
  id: `sub_${channel}`,
  report: 'daily-kpi',
  channel,
  createdBy: 'U0ADMIN001',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  ...timing,
});

/** The "Subscribed channels" part of the message, as the asker reads it. */
function subscribedText(loaded: LoadedReport, subscriptions: readonly Subscription[]): string {
  const message = showMessage(loaded, subscriptions, 'UTC');
  const text = (message.blocks[0] as { text: { text: string } }).text.text;
  return text.slice(text.indexOf('*Subscribed channels:*'));
}

describe('/pivot show: subscribed channels', () => {
  const scheduled = report('schedule:\n  at: "09:00"\n  days: weekdays\n');
  const subscriptions = [
    subscription('C0AT00001', { at: '14:30', timezone: 'Europe/Berlin' }),
    subscription('C0AT00002', { at: '07:00' }),
    subscription('C0CRON001', { cron: '0 9 * * 1-5', timezone: 'Asia/Tokyo' }),
    subscription('C0LEGACY1', { schedule: '30 8 * * *' }),
    subscription('C0REPORT1', {}),
  ];

  it.each([
    ['at with its zone', 'C0AT00001', '14:30 daily (Europe/Berlin)'],
    ["at in the report's zone", 'C0AT00002', '07:00 daily (America/Sao_Paulo)'],
    ['cron with its zone', 'C0CRON001', 'cron `0 9 * * 1-5` (Asia/Tokyo)'],
    ['the legacy schedule field', 'C0LEGACY1', 'cron `30 8 * * *` (America/Sao_Paulo)'],
    ["no timing of its own: the report's", 'C0REPORT1', 'on the report’s schedule, 09:00 weekdays (America/Sao_Paulo)'],
  ])('%s', (_name, channel, timing) => {
    expect(subscribedText(scheduled, subscriptions)).toContain(`<#${channel}> · ${timing}`);
  });

  it('prints the timing as /pivot schedule prints it', () => {
    const { lines } = scheduleOverview({
      reports: { reports: [scheduled], broken: [], problems: [] },
      subscriptions,
      runs: { listByReport: () => [] },
      timezone: 'UTC',
      now,
    });
    const shown = subscribedText(scheduled, subscriptions);
    const fromSubscriptions = lines.filter((l) => l.spec.source === 'subscription');
    expect(fromSubscriptions).toHaveLength(subscriptions.length);
    for (const line of fromSubscriptions) {
      // `• \`daily-kpi\` → <#C…> · <timing> · subscription`
      const timing = scheduleLineText(line).split('\n')[0]?.split(' · ')[1] as string;
      expect(shown).toContain(`<#${line.spec.channel}> · `);
      expect(shown).toContain(timing);
    }
  });

  it('says why a subscription cannot run', () => {
    const unscheduled = report('');
    const text = subscribedText(unscheduled, [
      subscription('C0NOTIME1', {}),
      subscription('C0BADZONE', { at: '09:00', timezone: 'Mars/Olympus' }),
    ]);
    expect(text).toContain('<#C0NOTIME1> · not running: report "daily-kpi" has no schedule');
    expect(text).toMatch(/<#C0BADZONE> · not running: .*Mars\/Olympus/);
  });

  it("prints a watch's check", () => {
    const watch = report(
      'deliver:\n  channels: [C0WATCH01]\nalerts:\n  - id: spend-high\n    metric: spend\n    above: 10\n    check: { cron: "*/30 * * * *", timezone: UTC }\n',
    );
    const text = subscribedText(watch, [
      subscription('C0WATCH01', { query: 'spend yesterday', watch: { id: 'spend-high', metric: 'spend', above: 10 } }),
    ]);
    expect(text).toContain('<#C0WATCH01> · watch, checked cron `*/30 * * * *` (UTC)');
  });

  it('says none when no channel subscribed', () => {
    expect(subscribedText(report(''), [])).toBe('*Subscribed channels:* none');
  });
});
