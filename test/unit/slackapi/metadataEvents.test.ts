import { ALERT_EVENT, ANSWER_EVENT, alertMetadata, answerMetadata, DIGEST_EVENT } from '../../../src/slackapi/index.js';

describe('metadata events', () => {
  it('names every event type pivotbot puts in message metadata once, each distinct', () => {
    expect([DIGEST_EVENT, ALERT_EVENT, ANSWER_EVENT]).toEqual(['pivotbot_digest', 'pivotbot_alert', 'pivotbot_answer']);
  });

  it('carries the metadata that tells a restarted bot an alert parent went out', () => {
    const input = { reportId: 'daily-kpi', ruleId: 'cpi-too-high', entity: 'Platform IOS' };
    expect(alertMetadata({ ...input, entityKey: 'appPlatform=IOS' }, 'open')).toEqual({
      event_type: 'pivotbot_alert',
      event_payload: { report: 'daily-kpi', rule: 'cpi-too-high', entity: 'appPlatform=IOS', state: 'open' },
    });
    expect(alertMetadata({ reportId: 'r', ruleId: 'x' }, 'resolved').event_payload.entity).toBe('total');
  });

  it('keeps the query an answer ran, which a reply in its thread refines', () => {
    expect(answerMetadata('cpi by country yesterday')).toEqual({
      event_type: 'pivotbot_answer',
      event_payload: { query: 'cpi by country yesterday' },
    });
  });
});
