import { acknowledge, summarizeAlerts } from '../../../src/alerts/index.js';
import { alertMessageInput, type MessageContext } from '../../../src/insights/index.js';
import { alertParentMessage, alertReplyMessage, alertsSummaryMessage } from '../../../src/render/index.js';
import { messageText } from '../../support/renderLimits.js';
import { cpi, rule, runSteps, T0 } from '../alerts/alertFixtures.js';

const ctx = (r: MessageContext['rule'], at: number): MessageContext => ({
  rule: r,
  reportId: 'daily-kpi',
  reportTitle: 'Daily KPIs',
  timezone: 'UTC',
  rangeLabel: 'Yesterday (Thu 19 Nov 2026)',
  now: new Date(T0 + at * 3_600_000),
});

describe('from transitions to messages', () => {
  it('renders the opening and the resolution of a threshold incident', () => {
    const r = rule({ name: 'CPI above target', above: 6, recovery: 5, mentions: ['S0UAONCALL'], severity: 'critical' });
    const { results } = runSteps(r, [
      { at: 0, rows: cpi({ BR: 7.1 }) },
      { at: 3, rows: cpi({ BR: 4.8 }) },
    ]);
    const opened = results[0]?.transitions[0];
    const resolved = results[1]?.transitions[0];
    if (!opened || !resolved) throw new Error('missing transitions');
    const parent = messageText(alertParentMessage(alertMessageInput(opened.incident, ctx(r, 0), opened)));
    expect(parent).toContain('*Installs CPI* for Country code BR is *$7.10*, above $6.00.');
    expect(parent).toContain('<!subteam^S0UAONCALL>');
    const edited = messageText(alertParentMessage(alertMessageInput(resolved.incident, ctx(r, 3), resolved)));
    expect(edited).toContain('back at or below $5.00: *$4.80*');
    expect(edited).toContain('after 3 h 00 min');
    expect(
      messageText(alertReplyMessage(alertMessageInput(resolved.incident, ctx(r, 3), resolved), 'resolved')),
    ).toContain('Resolved Fri 20 Nov 12:00 after 3 h 00 min');
  });

  it('shows the comparison value of a change rule and the band of an anomaly', () => {
    const change = rule({ change: { vs: 'same_period_last_week', above: '30%' } });
    const c = runSteps(change, [{ at: 0, rows: cpi({ BR: 7 }), comparison: { rows: cpi({ BR: 5 }) } }]).results[0]
      ?.transitions[0];
    if (!c) throw new Error('no change transition');
    expect(messageText(alertParentMessage(alertMessageInput(c.incident, ctx(change, 0), c)))).toContain(
      'up 40.0% vs same period last week ($5.00); alert on more than +30.0%',
    );
    const anomaly = rule({ anomaly: {} });
    const history = [2.0, 2.4, 1.6, 2.2].map((v) => ({ rows: cpi({ BR: v }) }));
    const a = runSteps(anomaly, [{ at: 0, rows: cpi({ BR: 3.5 }), history }]).results[0]?.transitions[0];
    if (!a) throw new Error('no anomaly transition');
    const text = messageText(alertParentMessage(alertMessageInput(a.incident, ctx(anomaly, 0), a)));
    expect(text).toContain('outside the expected $0.89 – $3.31 (usual $2.10, the same weekday of the last 4 weeks)');
    // Redrawn from the stored incident (after a button), the band is the same.
    expect(messageText(alertParentMessage(alertMessageInput(a.incident, ctx(anomaly, 1))))).toContain('$0.89 – $3.31');
  });

  it('redraws the parent after Acknowledge with who and when', () => {
    const r = rule({ above: 6 });
    const opened = runSteps(r, [{ at: 0, rows: cpi({ BR: 7 }) }]).results[0]?.transitions[0];
    if (!opened) throw new Error('no transition');
    const acked = acknowledge(opened.incident, 'U024BE7LH', new Date(T0 + 3_600_000));
    const text = messageText(alertParentMessage(alertMessageInput(acked, ctx(r, 1))));
    expect(text).toContain('acknowledged by <@U024BE7LH> at Fri 20 Nov 10:00');
    expect(text).toContain('*$7.00*, above $6.00');
  });

  it('feeds the summary message straight from summarizeAlerts', () => {
    const r = rule({ above: 6 });
    const { state } = runSteps(r, [{ at: 0, rows: cpi({ BR: 7 }) }]);
    const summary = summarizeAlerts({
      reports: [{ id: 'daily-kpi', title: 'Daily KPIs', rules: [r, rule({ id: 'other', above: 1 })] }],
      evaluations: state.evaluation ? [state.evaluation] : [],
      openIncidents: state.incidents,
    });
    const text = messageText(alertsSummaryMessage({ ...summary, now: new Date(T0).toISOString(), timezone: 'UTC' }));
    expect(text).toContain('1 open incident');
    expect(text).toContain('`other` (Daily KPIs): not evaluated yet');
  });
});
