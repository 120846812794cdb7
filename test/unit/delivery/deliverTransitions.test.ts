/**
 * deliverTransitions with a fake gateway and an in-memory store: parents recorded right after
 * each post, a parent found in the channel's history recorded instead of posted again, a parent
 * another replica recorded while the post waited for Slack's answer not recorded twice, and one
 * channel that refuses the bot not silencing the other incidents.
 */
import { silentLogger } from '../../../src/core/index.js';
import { deliverTransitions, type RuleThreads } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { type LoadedReport, parseReportText } from '../../../src/reports/index.js';
import type { SlackGateway } from '../../../src/slackapi/index.js';
import { type AlertIncident, createMemoryStore } from '../../../src/store/index.js';

const now = new Date('2026-11-23T12:00:00Z');
const parsed = parseReportText(
  'title: Watch\nquery:\n  dimensions: [appPlatform]\n  metrics: [spend]\n  range: yesterday\ndeliver:\n  channels: [C0ALERTS1]\nalerts:\n  - id: spend-high\n    metric: spend\n    above: 10\n',
  { file: 'reports/watch.yaml', id: 'watch', now },
);
const report = parsed.report as LoadedReport;
const threads: RuleThreads = {
  report,
  rule: report.definition.alerts[0] as RuleThreads['rule'],
  channels: ['C0ALERTS1'],
  rangeLabel: 'Yesterday',
  timezone: 'UTC',
  now,
};
const incident = (entity: string): AlertIncident => ({
  id: `inc_${entity}`,
  ruleId: 'spend-high',
  reportId: 'watch',
  entityKey: `appPlatform=${entity}`,
  state: 'open',
  channel: 'C0ALERTS1',
  values: [{ at: now.toISOString(), value: 20 }],
  openedAt: now.toISOString(),
  updatedAt: now.toISOString(),
  lastValue: 20,
  threshold: 10,
});

function fakeSlack(options: { history?: Array<{ ts: string; entity: string }>; refuse?: string } = {}) {
  const posts: Array<{ channel: string; message: SlackMessage; entity: unknown }> = [];
  let ts = 100;
  const slack = {
    async post(channel: string, message: SlackMessage, opts?: { metadata?: { event_payload: { entity: unknown } } }) {
      if (options.refuse && JSON.stringify(message).includes(options.refuse)) throw new Error('not_in_channel');
      posts.push({ channel, message, entity: opts?.metadata?.event_payload.entity });
      return { ts: `1700000000.000${++ts}`, channel };
    },
    async history() {
      return (options.history ?? []).map((h) => ({
        ts: h.ts,
        text: '',
        metadata: {
          event_type: 'pivotbot_alert',
          event_payload: { report: 'watch', rule: 'spend-high', entity: `appPlatform=${h.entity}`, state: 'open' },
        },
      }));
    },
    async update() {},
  } as unknown as SlackGateway;
  return { slack, posts };
}

async function setUp(slack: SlackGateway) {
  const store = createMemoryStore({ clock: () => now });
  const evaluation = {
    ruleKey: 'watch/spend-high',
    reportId: 'watch',
    ruleId: 'spend-high',
    lastEvaluatedAt: now.toISOString(),
    evaluated: 2,
    breaching: 2,
    skipped: 0,
    pending: [],
  };
  await store.incidents.applyEvaluation({ evaluation, incidents: [incident('IOS'), incident('ANDROID')] });
  const deps = {
    slack,
    charts: { renderView: async () => null },
    store,
    logger: silentLogger(),
    clock: () => now,
    defaultTimeZone: 'UTC',
  };
  return { store, deps };
}

describe('deliverTransitions', () => {
  it('posts a parent for each open incident without one and records its ts', async () => {
    const { slack, posts } = fakeSlack();
    const { store, deps } = await setUp(slack);
    const out = await deliverTransitions(threads, [], deps, { attempt: 1 });
    expect(out.parents).toBe(2);
    expect(posts.map((p) => p.entity).sort()).toEqual(['appPlatform=ANDROID', 'appPlatform=IOS']);
    expect(store.incidents.listOpen().every((i) => i.threadTs?.startsWith('1700000000.'))).toBe(true);
  });

  it('records a parent an earlier process posted (found in the history) instead of posting it again', async () => {
    const { slack, posts } = fakeSlack({ history: [{ ts: '1699999999.000001', entity: 'IOS' }] });
    const { store, deps } = await setUp(slack);
    await deliverTransitions(threads, [], deps, { attempt: 2 });
    expect(posts.map((p) => p.entity)).toEqual(['appPlatform=ANDROID']);
    expect(store.incidents.get('inc_IOS')?.threadTs).toBe('1699999999.000001');
  });

  it('tells the other incidents when one post fails, then fails the slot', async () => {
    // The store lists the newest first: ANDROID is tried first, and refused.
    const { slack, posts } = fakeSlack({ refuse: 'ANDROID' });
    const { store, deps } = await setUp(slack);
    await expect(deliverTransitions(threads, [], deps, { attempt: 1 })).rejects.toThrow('not_in_channel');
    expect(posts.map((p) => p.entity)).toEqual(['appPlatform=IOS']);
    expect(store.incidents.get('inc_IOS')?.threadTs).toBeDefined();
    expect(store.incidents.get('inc_ANDROID')?.threadTs).toBeUndefined();
  });

  it('does not record a second time a parent another replica recorded while its post waited for Slack', async () => {
    const { slack, posts } = fakeSlack();
    const { store, deps } = await setUp(slack);
    const post = slack.post.bind(slack);
    // Frozen between its request and Slack's answer: meanwhile the replica that took the slot over
    // found the post in the channel's history and recorded it.
    slack.post = async (channel, message, options) => {
      const posted = await post(channel, message, options);
      const entity = (options?.metadata?.event_payload as { entity?: string } | undefined)?.entity;
      const id = `inc_${String(entity).replace('appPlatform=', '')}`;
      const other = store.incidents.get(id) as AlertIncident;
      await store.incidents.save({ ...other, channel: posted.channel, threadTs: posted.ts });
      return posted;
    };
    await deliverTransitions(threads, [], deps, { attempt: 1 });
    expect(posts).toHaveLength(2);
    for (const incident of store.incidents.listOpen()) {
      expect(incident.threadTs).toBeDefined();
      expect(incident.threads ?? []).toEqual([]);
    }
  });
});
