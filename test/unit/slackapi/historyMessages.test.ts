import { findAlertParent } from '../../../src/delivery/alertParents.js';
import { findDigestPost } from '../../../src/delivery/deliverDigest.js';
import { isTopLevel, messagesOf } from '../../../src/slackapi/historyMessages.js';
import { ALERT_EVENT, DIGEST_EVENT } from '../../../src/slackapi/index.js';
import type { HistoryMessage } from '../../../src/slackapi/SlackGateway.js';
import type { AlertIncident } from '../../../src/store/index.js';

describe('isTopLevel', () => {
  it.each([
    ['a post nobody replied to', true, { ts: '1.000100' }],
    ['a parent with replies (thread_ts is its own ts)', true, { ts: '1.000100', threadTs: '1.000100' }],
    ['a reply broadcast to the channel', false, { ts: '2.000200', threadTs: '1.000100' }],
    ['a reply read from its thread', false, { ts: '3.000300', threadTs: '1.000100' }],
  ])('%s → top-level: %s', (_what, expected, message) => {
    expect(isTopLevel(message)).toBe(expected);
  });

  it("reads Slack's history answer: a parent with replies is top-level, a broadcast reply is not", () => {
    const read = messagesOf({
      messages: [
        { type: 'message', subtype: 'thread_broadcast', ts: '1700000003.000300', thread_ts: '1700000001.000100' },
        {
          type: 'message',
          ts: '1700000001.000100',
          thread_ts: '1700000001.000100',
          reply_count: 2,
          latest_reply: '1700000003.000300',
        },
        { type: 'message', ts: '1700000000.000050' },
      ],
    });
    expect(read.map((m) => [m.ts, isTopLevel(m)])).toEqual([
      ['1700000003.000300', false],
      ['1700000001.000100', true],
      ['1700000000.000050', true],
    ]);
  });
});

describe('readers of history go by the rule', () => {
  const alert = {
    event_type: ALERT_EVENT,
    event_payload: { report: 'watch', rule: 'spend-high', entity: 'appPlatform=IOS', state: 'open' },
  };
  const digest = { event_type: DIGEST_EVENT, event_payload: { report: 'daily', slot: '2026-11-23T12:00:00.000Z' } };
  const incident = { reportId: 'watch', ruleId: 'spend-high', entityKey: 'appPlatform=IOS' } as AlertIncident;
  const run = {
    spec: { report: 'daily' },
    slot: new Date('2026-11-23T12:00:00.000Z'),
  } as Parameters<typeof findDigestPost>[1];

  /** Newest first, as history reads: a broadcast reply with the same metadata, then the parent it answers. */
  const history = (metadata: HistoryMessage['metadata']): HistoryMessage[] => [
    { ts: '5.000500', text: '', threadTs: '1.000100', ...(metadata ? { metadata } : {}) },
    { ts: '1.000100', text: '', threadTs: '1.000100', ...(metadata ? { metadata } : {}) },
  ];

  it('finds an alert parent that already has replies, never a broadcast reply', () => {
    expect(findAlertParent(history(alert), incident)?.ts).toBe('1.000100');
    expect(findAlertParent(history(alert).slice(0, 1), incident)).toBeUndefined();
  });

  it('finds a digest whose thread has its CSV, never a broadcast reply', () => {
    expect(findDigestPost(history(digest), run)?.ts).toBe('1.000100');
    expect(findDigestPost(history(digest).slice(0, 1), run)).toBeUndefined();
  });
});
