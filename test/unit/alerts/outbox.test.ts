/**
 * The incidents' outbox: what an evaluation owes the threads (pure), and its delivery with an
 * in-memory store and a fake Slack that keeps threads: a failed chat.update or chat.postMessage
 * leaves the notice owed and the next evaluation delivers it once; a reply an earlier process
 * posted without recording it is found in its thread instead of posted again.
 */
import {
  type AlertTransition,
  evaluateRule,
  owedWrite,
  oweNotices,
  replySent,
  withOwed,
} from '../../../src/alerts/index.js';
import { silentLogger } from '../../../src/core/index.js';
import { deliverOwedAlerts, deliverTransitions, type RuleThreads } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { type LoadedReport, parseReportText } from '../../../src/reports/index.js';
import { SlackDeliveryError, type SlackGateway } from '../../../src/slackapi/index.js';
import { type AlertIncident, createMemoryStore, type OwedReply } from '../../../src/store/index.js';
import { cpi, T0, view } from './alertFixtures.js';

const now = new Date(T0);
const at = now.toISOString();

const openIncident = (fields: Partial<AlertIncident> = {}): AlertIncident => ({
  id: 'inc_BR',
  ruleId: 'cpi-high',
  reportId: 'daily-kpi',
  entityKey: 'countryCode=BR',
  entityLabel: 'Country BR',
  state: 'open',
  channel: 'C0ALERTS1',
  threadTs: '1700000000.000001',
  values: [{ at: new Date(T0 - 3_600_000).toISOString(), value: 9 }],
  openedAt: new Date(T0 - 3_600_000).toISOString(),
  updatedAt: new Date(T0 - 3_600_000).toISOString(),
  lastValue: 9,
  threshold: 6,
  ...fields,
});

const transition = (kind: AlertTransition['kind'], notify = true): AlertTransition => ({
  kind,
  reportId: 'daily-kpi',
  ruleId: 'cpi-high',
  ruleName: 'cpi-high',
  severity: 'warning',
  entityKey: 'countryCode=BR',
  entityLabel: 'Country BR',
  incident: openIncident(),
  value: 9,
  condition: { kind: 'above', threshold: 6, recovery: 6 },
  openedAt: openIncident().openedAt,
  notify,
});

const owed = (id: string, fields: Partial<OwedReply> = {}): OwedReply => ({
  id,
  kind: 'reminder',
  at,
  value: 9,
  condition: { kind: 'above', threshold: 6, recovery: 6 },
  ...fields,
});

describe('oweNotices', () => {
  it.each([
    ['open', true, [], false],
    ['remind', true, ['reminder'], false],
    ['bigMove', true, ['bigMove'], false],
    ['resolve', true, ['resolved'], true],
    ['reopen', true, ['reopened'], true],
    // A reopening during a snooze edits the parents and says nothing.
    ['reopen', false, [], true],
  ] as const)('%s (notify %s) owes replies %j, edit %s', (kind, notify, replies, edit) => {
    const notices = oweNotices([transition(kind, notify)], now).get('inc_BR');
    expect(notices?.replies.map((r) => r.kind) ?? []).toEqual(replies);
    expect(notices?.edit ?? false).toBe(edit);
  });

  it('names each notice by its kind and the evaluation instant, so a retried slot owes the same ids', () => {
    const [first] = oweNotices([transition('remind')], now).get('inc_BR')?.replies ?? [];
    const [again] = oweNotices([transition('remind')], new Date(T0)).get('inc_BR')?.replies ?? [];
    expect(first?.id).toBe(`reminder@${at}`);
    expect(again?.id).toBe(first?.id);
  });
});

describe('withOwed and replySent', () => {
  it('keeps what the store still owes, adds what is new once, and drops what a delivery already removed', () => {
    const stale = openIncident({ owedReplies: [owed('a'), owed('b')] });
    const stored = openIncident({ owedReplies: [owed('b')] });
    const next = withOwed(stale, stored, { replies: [owed('b'), owed('c')], edit: false });
    expect(next.owedReplies?.map((r) => r.id)).toEqual(['b', 'c']);
    expect(next.owedEdit).toBeUndefined();
    expect(withOwed(stale, openIncident({ owedEdit: true }), undefined).owedEdit).toBe(true);
    expect(withOwed(stale, openIncident(), undefined).owedReplies).toBeUndefined();
  });

  it('removes a reply once every parent has it', () => {
    const parents = ['1.1', '2.2'];
    const once = replySent(openIncident({ owedReplies: [owed('a'), owed('b')] }), 'a', '1.1', parents);
    expect(once.owedReplies?.map((r) => [r.id, r.sentTo])).toEqual([
      ['a', ['1.1']],
      ['b', undefined],
    ]);
    const twice = replySent(once, 'a', '2.2', parents);
    expect(twice.owedReplies?.map((r) => r.id)).toEqual(['b']);
    expect(replySent(twice, 'b', '1.1', ['1.1']).owedReplies).toBeUndefined();
  });
});

const parsed = parseReportText(
  'title: Daily KPIs\nquery:\n  dimensions: [countryCode]\n  metrics: [installsCpi, installs, spend]\n  range: yesterday\ndeliver:\n  channels: [C0ALERTS1]\nalerts:\n  - id: cpi-high\n    metric: installsCpi\n    above: 6\n',
  { file: 'reports/daily-kpi.yaml', id: 'daily-kpi', now },
);
const report = parsed.report as LoadedReport;
const rule = report.definition.alerts[0] as RuleThreads['rule'];
const threads: RuleThreads = {
  report,
  rule,
  channels: ['C0ALERTS1'],
  rangeLabel: 'Yesterday',
  timezone: 'UTC',
  now,
};

/** A Slack that keeps its threads and fails the next calls of a method on demand. */
function fakeSlack() {
  const messages: Array<{ channel: string; ts: string; threadTs?: string; text: string; metadata?: unknown }> = [];
  const updates: string[] = [];
  const failing = new Map<string, number>();
  const gone = new Map<string, string>();
  let seq = 100;
  const fail = (method: string) => {
    const goneAs = gone.get(method);
    if (goneAs) throw new SlackDeliveryError(method, goneAs);
    const left = failing.get(method) ?? 0;
    if (left <= 0) return;
    failing.set(method, left - 1);
    throw new Error(`${method}: internal_error`);
  };
  const slack = {
    async post(channel: string, message: SlackMessage, opts: { threadTs?: string; metadata?: unknown } = {}) {
      fail('chat.postMessage');
      const ts = `1700000000.000${++seq}`;
      messages.push({
        channel,
        ts,
        text: message.text,
        ...(opts.threadTs ? { threadTs: opts.threadTs } : {}),
        ...(opts.metadata ? { metadata: opts.metadata } : {}),
      });
      return { ts, channel };
    },
    async update(_channel: string, ts: string) {
      fail('chat.update');
      updates.push(ts);
    },
    async replies(channel: string, threadTs: string) {
      fail('conversations.replies');
      return messages
        .filter((m) => m.channel === channel && m.threadTs === threadTs)
        .map((m) => ({ ts: m.ts, text: m.text, threadTs, metadata: m.metadata }));
    },
    async history() {
      return [];
    },
  } as unknown as SlackGateway;
  return {
    slack,
    messages,
    updates,
    failNext: (method: string, times = 1) => failing.set(method, times),
    /** Every call of `method` from now on says the message is gone (a deleted parent, an archived channel). */
    gone: (method: string, error = 'message_not_found') => gone.set(method, error),
  };
}

/** BR open above 6 with its parent posted; the evaluation at T0 sees CPI 3: a resolve is owed. */
async function resolvedButOwed(fake: ReturnType<typeof fakeSlack>) {
  const store = createMemoryStore({ clock: () => now });
  const evaluation = {
    ruleKey: 'daily-kpi/cpi-high',
    reportId: 'daily-kpi',
    ruleId: 'cpi-high',
    lastEvaluatedAt: new Date(T0 - 3_600_000).toISOString(),
    evaluated: 1,
    breaching: 1,
    skipped: 0,
    pending: [],
  };
  await store.incidents.applyEvaluation({ evaluation, incidents: [openIncident()] });
  const result = evaluateRule({
    reportId: 'daily-kpi',
    rule,
    current: view(cpi({ BR: 3 })),
    state: { incidents: store.incidents.listByReportRule('daily-kpi', 'cpi-high'), evaluation },
    now,
    channel: 'C0ALERTS1',
  });
  expect(result.transitions.map((t) => t.kind)).toEqual(['resolve']);
  await store.incidents.applyEvaluation(owedWrite(result, now, (id) => store.incidents.get(id)));
  const deps = {
    slack: fake.slack,
    charts: { renderView: async () => null },
    store,
    logger: silentLogger(),
    clock: () => now,
    defaultTimeZone: 'UTC',
  };
  return { store, deps, transitions: result.transitions };
}

const replyIn = (fake: ReturnType<typeof fakeSlack>) => fake.messages.filter((m) => m.threadTs === '1700000000.000001');

describe('the store and the outbox', () => {
  it('does not prune a resolved incident that still owes its thread, and prunes it once delivered', async () => {
    const store = createMemoryStore({ clock: () => now, limits: { resolvedIncidentsPerRule: 1 } });
    const evaluation = {
      ruleKey: 'daily-kpi/cpi-high',
      reportId: 'daily-kpi',
      ruleId: 'cpi-high',
      lastEvaluatedAt: at,
      evaluated: 3,
      breaching: 0,
      skipped: 0,
      pending: [],
    };
    const resolved = (entity: string, minutes: number, owes: boolean): AlertIncident =>
      openIncident({
        id: `inc_${entity}`,
        entityKey: `countryCode=${entity}`,
        state: 'resolved',
        openedAt: new Date(T0 - minutes * 60_000).toISOString(),
        resolvedAt: at,
        ...(owes ? { owedEdit: true as const, owedReplies: [owed(`resolved@${at}`, { kind: 'resolved' })] } : {}),
      });
    await store.incidents.applyEvaluation({
      evaluation,
      incidents: [resolved('BR', 30, true), resolved('US', 20, true), resolved('DE', 10, true)],
    });
    expect(store.incidents.listByRule('cpi-high')).toHaveLength(3);
    // Delivered: the next resolve prunes down to the limit.
    await store.incidents.applyEvaluation({
      evaluation,
      incidents: [resolved('BR', 30, false), resolved('US', 20, false), resolved('DE', 10, false)],
    });
    expect(store.incidents.listByRule('cpi-high').map((i) => i.id)).toEqual(['inc_DE']);
  });
});

describe('delivering the outbox', () => {
  it('stores the owed edit and reply with the evaluation, and clears them as each lands', async () => {
    const fake = fakeSlack();
    const { store, deps, transitions } = await resolvedButOwed(fake);
    expect(store.incidents.get('inc_BR')).toMatchObject({ state: 'resolved', owedEdit: true });
    expect(store.incidents.get('inc_BR')?.owedReplies?.map((r) => r.id)).toEqual([`resolved@${at}`]);
    const out = await deliverTransitions(threads, transitions, deps, { attempt: 1 });
    expect(out).toEqual({ parents: 0, replies: 1, edits: 1 });
    expect(replyIn(fake)[0]?.metadata).toMatchObject({
      event_type: 'pivotbot_alert',
      event_payload: { incident: 'inc_BR', notice: `resolved@${at}`, state: 'resolved' },
    });
    expect(store.incidents.get('inc_BR')?.owedEdit).toBeUndefined();
    expect(store.incidents.get('inc_BR')?.owedReplies).toBeUndefined();
  });

  it.each([
    ['chat.update', 0],
    ['chat.postMessage', 1],
  ])('a failed %s is delivered by the next evaluation, once', async (method, editsBefore) => {
    const fake = fakeSlack();
    const { store, deps, transitions } = await resolvedButOwed(fake);
    fake.failNext(method);
    await expect(deliverTransitions(threads, transitions, deps, { attempt: 1 })).rejects.toThrow('internal_error');
    expect(fake.updates).toHaveLength(editsBefore);
    expect(replyIn(fake)).toHaveLength(0);
    expect(store.incidents.get('inc_BR')?.owedReplies).toHaveLength(1);

    // The next evaluation has nothing new to say; it delivers what is still owed.
    const next = await deliverTransitions({ ...threads, now: new Date(T0 + 60_000) }, [], deps, { attempt: 1 });
    expect(next.replies).toBe(1);
    expect(fake.updates).toEqual(['1700000000.000001']);
    expect(replyIn(fake)).toHaveLength(1);
    expect(store.incidents.get('inc_BR')?.owedReplies).toBeUndefined();
    expect(store.incidents.get('inc_BR')?.owedEdit).toBeUndefined();

    await deliverTransitions({ ...threads, now: new Date(T0 + 120_000) }, [], deps, { attempt: 1 });
    expect(replyIn(fake)).toHaveLength(1);
  });

  it.each([
    ['was deleted', 'message_not_found'],
    ['is in an archived channel', 'is_archived'],
    ['is in a channel Slack calls inactive (archived, as chat.update says it)', 'is_inactive'],
  ])('drops what is owed to a thread whose parent %s, instead of failing every evaluation', async (_why, error) => {
    const fake = fakeSlack();
    const { store, deps, transitions } = await resolvedButOwed(fake);
    fake.gone('chat.update', error);
    fake.gone('chat.postMessage', error);
    const out = await deliverTransitions(threads, transitions, deps, { attempt: 1 });
    expect(out).toEqual({ parents: 0, replies: 0, edits: 0 });
    expect(store.incidents.get('inc_BR')?.owedEdit).toBeUndefined();
    expect(store.incidents.get('inc_BR')?.owedReplies).toBeUndefined();
  });

  it('is delivered at start-up, after a thread check, and only once', async () => {
    const fake = fakeSlack();
    const { store, deps } = await resolvedButOwed(fake);
    // An earlier process posted the reply and died before recording it.
    const reply = store.incidents.get('inc_BR')?.owedReplies?.[0] as OwedReply;
    fake.messages.push({
      channel: 'C0ALERTS1',
      ts: '1700000000.000050',
      threadTs: '1700000000.000001',
      text: 'resolved',
      metadata: { event_type: 'pivotbot_alert', event_payload: { incident: 'inc_BR', notice: reply.id } },
    });
    const startDeps = { ...deps, loadReports: async () => ({ reports: [report], problems: [], broken: [] }) };
    expect(await deliverOwedAlerts(startDeps as never)).toBe(1);
    expect(fake.updates).toEqual(['1700000000.000001']);
    expect(replyIn(fake)).toHaveLength(1);
    expect(store.incidents.get('inc_BR')?.owedReplies).toBeUndefined();
    expect(await deliverOwedAlerts(startDeps as never)).toBe(0);
  });

  it('clears the outbox of a resolved incident that never got a thread (nothing to tell, nothing kept forever)', async () => {
    const fake = fakeSlack();
    const { store, deps } = await resolvedButOwed(fake);
    const incident = store.incidents.get('inc_BR') as AlertIncident;
    const { threadTs: _never, ...withoutParent } = incident;
    await store.incidents.save(withoutParent);
    await deliverTransitions(threads, [], deps, { attempt: 1 });
    expect(fake.messages).toEqual([]);
    expect(store.incidents.get('inc_BR')?.owedEdit).toBeUndefined();
    expect(store.incidents.get('inc_BR')?.owedReplies).toBeUndefined();
  });

  it('records a reply found in its thread (posted, then the process died) instead of posting it again', async () => {
    const fake = fakeSlack();
    const { store, deps, transitions } = await resolvedButOwed(fake);
    await deliverTransitions(threads, transitions, deps, { attempt: 1 });
    // As if the process died before recording: the reply is owed again, the thread has it.
    const incident = store.incidents.get('inc_BR') as AlertIncident;
    await store.incidents.save({ ...incident, owedReplies: [owed(`resolved@${at}`, { kind: 'resolved', value: 3 })] });
    const again = await deliverTransitions(threads, [], deps, { attempt: 2 });
    expect(again.replies).toBe(0);
    expect(replyIn(fake)).toHaveLength(1);
    expect(store.incidents.get('inc_BR')?.owedReplies).toBeUndefined();
  });
});
