/**
 * An alert button click redraws every parent of the incident. A parent that is gone (deleted, or in
 * an archived channel) must not keep the others from being redrawn, nor make the click fail.
 */
import { silentLogger } from '../../../../src/core/index.js';
import type { SlackMessage } from '../../../../src/render/index.js';
import { type LoadedReport, parseReportText } from '../../../../src/reports/index.js';
import { alertAction } from '../../../../src/slack/app/alertActions.js';
import { SlackDeliveryError, type SlackGateway } from '../../../../src/slackapi/index.js';
import { createMemoryStore } from '../../../../src/store/index.js';

const NOW = new Date('2026-11-20T12:00:00Z');

const parsed = parseReportText(
  'title: Daily KPIs\nquery:\n  dimensions: [countryCode]\n  metrics: [installsCpi]\n  range: yesterday\ndeliver:\n  channels: [C0ARCHIVE1, C0ALERTS1]\nalerts:\n  - id: cpi-high\n    metric: installsCpi\n    above: 6\n',
  { file: 'reports/daily-kpi.yaml', id: 'daily-kpi', now: NOW },
);

describe('alertAction', () => {
  it('redraws the parents still there when one is in an archived channel, and the click succeeds', async () => {
    const store = createMemoryStore({ clock: () => NOW });
    await store.incidents.save({
      id: 'inc_BR',
      ruleId: 'cpi-high',
      reportId: 'daily-kpi',
      entityKey: 'countryCode=BR',
      state: 'open',
      channel: 'C0ARCHIVE1',
      threadTs: '1700000000.000001',
      threads: [{ channel: 'C0ALERTS1', ts: '1700000000.000002' }],
      values: [{ at: NOW.toISOString(), value: 9 }],
      openedAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      lastValue: 9,
      threshold: 6,
    });
    const updated: string[] = [];
    const told: string[] = [];
    const slack = {
      async update(channel: string, ts: string) {
        if (channel === 'C0ARCHIVE1') throw new SlackDeliveryError('chat.update', 'is_inactive');
        updated.push(ts);
      },
      async respond(_url: string, message: SlackMessage) {
        told.push(message.text);
      },
    } as unknown as SlackGateway;
    await alertAction(
      { actionId: 'alert_ack', value: JSON.stringify({ incidentId: 'inc_BR' }), userId: 'U1', responseUrl: 'hook' },
      {
        slack,
        store,
        loadReports: async () => ({ reports: [parsed.report as LoadedReport], problems: [], broken: [] }),
        logger: silentLogger(),
        clock: () => NOW,
        defaultTimeZone: 'UTC',
      },
    );
    expect(store.incidents.get('inc_BR')?.acknowledgedBy).toBe('U1');
    expect(updated).toEqual(['1700000000.000002']);
    expect(told.join(' ')).not.toContain('did not work');
  });
});
