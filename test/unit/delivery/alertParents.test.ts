/**
 * An incident's parents are matched to the report's channels by the channel each was posted in,
 * never by position: reordering, replacing or naming (`#name`) the report's `deliver.channels`
 * while an incident is open posts no second parent, and a channel without one gets one. Real
 * evaluations (`evaluateAlertSlot`) over a fake Reporting Service, the real in-memory store, and
 * a gateway that records every post.
 */
import { silentLogger } from '../../../src/core/index.js';
import { channelIds, channelsLackingParents } from '../../../src/delivery/alertParents.js';
import { evaluateAlertSlot } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import type { PivotRequest, PivotResponse, ReportingClient } from '../../../src/reporting/index.js';
import { type LoadedReport, parseReportText } from '../../../src/reports/index.js';
import type { ScheduleSpec } from '../../../src/scheduler/index.js';
import { SlackDeliveryError, type SlackGateway } from '../../../src/slackapi/index.js';
import { type AlertIncident, createMemoryStore } from '../../../src/store/index.js';

const FIRST_SLOT = new Date('2026-11-23T09:00:00Z');
const SECOND_SLOT = new Date('2026-11-24T09:00:00Z');

function report(channels: readonly string[]): LoadedReport {
  const text = [
    'title: Watch',
    'query:',
    '  dimensions: [appPlatform]',
    '  metrics: [spend]',
    '  range: yesterday',
    '  timezone: UTC',
    'present:',
    '  explain: false',
    'deliver:',
    `  channels: [${channels.map((c) => JSON.stringify(c)).join(', ')}]`,
    'alerts:',
    '  - id: spend-high',
    '    metric: spend',
    '    above: 10',
  ].join('\n');
  const parsed = parseReportText(text, { file: 'reports/watch.yaml', id: 'watch', now: FIRST_SLOT });
  if (!parsed.report) throw new Error(JSON.stringify(parsed.problems));
  return parsed.report;
}

/** A Reporting Service where IOS spends `spend.value` (above the rule's 10) and ANDROID 1. */
function fakeClient(spend: { value: number }): ReportingClient {
  const pivot = async (request: PivotRequest): Promise<PivotResponse> => {
    const byDay = request.dimensions[0]?.name === 'date';
    const rows = byDay
      ? ['2026-11-20', '2026-11-21', '2026-11-22'].flatMap((date) => [
          { date, appPlatform: 'IOS', spend: spend.value },
          { date, appPlatform: 'ANDROID', spend: 1 },
        ])
      : [
          { appPlatform: 'IOS', spend: spend.value },
          { appPlatform: 'ANDROID', spend: 1 },
        ];
    const columns = [
      ...(byDay ? [{ key: 'date', kind: 'dimension', name: 'date', args: { granularity: 'DAILY' } }] : []),
      { key: 'appPlatform', kind: 'dimension', name: 'appPlatform', args: {} },
      { key: 'spend', kind: 'metric', name: 'spend', args: {} },
    ];
    return { columns, rows, warnings: [] } as PivotResponse;
  };
  return { pivot } as unknown as ReportingClient;
}

interface Post {
  channel: string;
  ts: string;
  threadTs?: string;
  kind: 'parent' | 'reply';
}

/**
 * A Slack that records posts, answers each with the channel's id (a `#name` resolved as Slack
 * does) and refuses posts to the channels in `refusing` (as a channel that has not invited the bot).
 */
function recordingSlack(names: Record<string, string> = {}) {
  const posts: Post[] = [];
  const refusing = new Set<string>();
  let next = 100;
  const idOf = (channel: string): string => names[channel] ?? channel;
  const slack = {
    async post(channel: string, _message: SlackMessage, options?: { threadTs?: string }) {
      const id = idOf(channel);
      if (refusing.has(id)) throw new SlackDeliveryError('chat.postMessage', 'not_in_channel');
      const ts = `1700000000.000${++next}`;
      posts.push({
        channel: id,
        ts,
        kind: options?.threadTs ? 'reply' : 'parent',
        ...(options?.threadTs ? { threadTs: options.threadTs } : {}),
      });
      return { ts, channel: id };
    },
    async update() {},
    async history() {
      return [];
    },
    async replies() {
      return [];
    },
    async channelId(channel: string) {
      return idOf(channel);
    },
    withLane() {
      return slack;
    },
  } as unknown as SlackGateway;
  return { slack, posts, refusing };
}

function setUp(names?: Record<string, string>) {
  const { slack, posts, refusing } = recordingSlack(names);
  const store = createMemoryStore({ clock: () => FIRST_SLOT });
  const spend = { value: 15 };
  let loaded = report(['C0AAAAAAA', 'C0BBBBBBB', 'C0CCCCCCC']);
  const deps = {
    slack,
    client: fakeClient(spend),
    store,
    charts: { renderView: async () => null },
    logger: silentLogger(),
    clock: () => FIRST_SLOT,
    workDir: '/nonexistent',
    defaultTimeZone: 'UTC',
    signal: new AbortController().signal,
    loadReports: async () => ({ reports: [loaded], broken: [], problems: [] }),
  };
  const evaluate = (slot: Date) =>
    evaluateAlertSlot(
      {
        spec: { kind: 'alert', rule: 'spend-high', report: 'watch' } as ScheduleSpec,
        slot,
        late: false,
        attempt: 1,
        runId: `run_${slot.toISOString()}`,
        waitedMs: 0,
        signal: new AbortController().signal,
      },
      deps,
    );
  const deliverTo = (channels: readonly string[]) => {
    loaded = report(channels);
  };
  const incident = (): AlertIncident => {
    const open = store.incidents.listOpen();
    expect(open).toHaveLength(1);
    return open[0] as AlertIncident;
  };
  return { posts, refusing, spend, evaluate, deliverTo, incident };
}

const parentsIn = (posts: readonly Post[], channel: string) =>
  posts.filter((p) => p.kind === 'parent' && p.channel === channel);

/** Each channel's one parent, and the stored parents of the incident by channel. */
function storedParents(incident: AlertIncident): Record<string, string> {
  const out: Record<string, string> = {};
  if (incident.threadTs) out[incident.channel] = incident.threadTs;
  for (const t of incident.threads ?? []) {
    expect(out[t.channel]).toBeUndefined();
    out[t.channel] = t.ts;
  }
  return out;
}

describe('alert parents follow the channels they were posted in', () => {
  it('posts the missing parent in its channel, not a second one in another, when the channels are reordered', async () => {
    const { posts, refusing, spend, evaluate, deliverTo, incident } = setUp();
    // C refuses the first parent: the incident opens with parents in A and B only.
    refusing.add('C0CCCCCCC');
    await expect(evaluate(FIRST_SLOT)).rejects.toThrow('not_in_channel');
    expect(Object.keys(storedParents(incident())).sort()).toEqual(['C0AAAAAAA', 'C0BBBBBBB']);

    // C invites the bot; the report now lists [A, C, B]; IOS moves far past the trigger (a reply).
    refusing.clear();
    deliverTo(['C0AAAAAAA', 'C0CCCCCCC', 'C0BBBBBBB']);
    spend.value = 40;
    await evaluate(SECOND_SLOT);

    for (const channel of ['C0AAAAAAA', 'C0BBBBBBB', 'C0CCCCCCC']) expect(parentsIn(posts, channel)).toHaveLength(1);
    const stored = storedParents(incident());
    expect(stored).toEqual({
      C0AAAAAAA: parentsIn(posts, 'C0AAAAAAA')[0]?.ts,
      C0BBBBBBB: parentsIn(posts, 'C0BBBBBBB')[0]?.ts,
      C0CCCCCCC: parentsIn(posts, 'C0CCCCCCC')[0]?.ts,
    });
    // The large move's reply went once into each channel's own thread.
    const replies = posts.filter((p) => p.kind === 'reply');
    expect(replies.map((r) => [r.channel, r.threadTs]).sort()).toEqual(
      Object.entries(stored)
        .map(([channel, ts]) => [channel, ts])
        .sort(),
    );
    expect(incident().owedReplies).toBeUndefined();
  });

  it('posts nothing new but the replies when every channel has its parent and the order changes', async () => {
    const { posts, spend, evaluate, deliverTo, incident } = setUp();
    await evaluate(FIRST_SLOT);
    const before = storedParents(incident());
    expect(Object.keys(before)).toHaveLength(3);

    deliverTo(['C0CCCCCCC', 'C0AAAAAAA', 'C0BBBBBBB']);
    spend.value = 40;
    await evaluate(SECOND_SLOT);

    expect(posts.filter((p) => p.kind === 'parent')).toHaveLength(3);
    expect(storedParents(incident())).toEqual(before);
    const replies = posts.filter((p) => p.kind === 'reply');
    expect(replies.map((r) => [r.channel, r.threadTs]).sort()).toEqual(Object.entries(before).sort());
  });

  it('gives a channel that replaced another its own parent, and keeps the replaced thread', async () => {
    const { posts, spend, evaluate, deliverTo, incident } = setUp();
    deliverTo(['C0AAAAAAA', 'C0BBBBBBB']);
    await evaluate(FIRST_SLOT);

    deliverTo(['C0AAAAAAA', 'C0CCCCCCC']);
    spend.value = 40;
    await evaluate(SECOND_SLOT);

    for (const channel of ['C0AAAAAAA', 'C0BBBBBBB', 'C0CCCCCCC']) expect(parentsIn(posts, channel)).toHaveLength(1);
    expect(Object.keys(storedParents(incident())).sort()).toEqual(['C0AAAAAAA', 'C0BBBBBBB', 'C0CCCCCCC']);
  });

  it('matches a channel written by #name to the parent posted there (stored by id)', async () => {
    const names = { '#ua-alerts': 'C0BBBBBBB', '#ua-growth': 'C0CCCCCCC' };
    const { posts, refusing, spend, evaluate, deliverTo, incident } = setUp(names);
    deliverTo(['C0AAAAAAA', '#ua-alerts', '#ua-growth']);
    refusing.add('C0CCCCCCC');
    await expect(evaluate(FIRST_SLOT)).rejects.toThrow('not_in_channel');

    refusing.clear();
    deliverTo(['C0AAAAAAA', '#ua-growth', '#ua-alerts']);
    spend.value = 40;
    await evaluate(SECOND_SLOT);

    for (const channel of ['C0AAAAAAA', 'C0BBBBBBB', 'C0CCCCCCC']) expect(parentsIn(posts, channel)).toHaveLength(1);
    expect(Object.keys(storedParents(incident())).sort()).toEqual(['C0AAAAAAA', 'C0BBBBBBB', 'C0CCCCCCC']);
  });
});

describe('channelsLackingParents', () => {
  const incident = (parents: Array<[string, string]>): AlertIncident => ({
    id: 'inc_1',
    ruleId: 'spend-high',
    reportId: 'watch',
    entityKey: 'appPlatform=IOS',
    state: 'open',
    channel: parents[0]?.[0] ?? 'C0AAAAAAA',
    values: [],
    openedAt: FIRST_SLOT.toISOString(),
    updatedAt: FIRST_SLOT.toISOString(),
    ...(parents[0] ? { threadTs: parents[0][1] } : {}),
    ...(parents.length > 1 ? { threads: parents.slice(1).map(([channel, ts]) => ({ channel, ts })) } : {}),
  });
  // #renamed: a name Slack no longer knows (the channel was renamed since its parent was posted).
  const idOf = channelIds({
    channelId: async (channel: string) => {
      const id = { '#ua-alerts': 'C0BBBBBBB', '#ua-growth': 'C0CCCCCCC' }[channel];
      if (!id) throw new SlackDeliveryError('conversations.list', 'channel_not_found');
      return id;
    },
  });
  const A: [string, string] = ['C0AAAAAAA', '1.1'];
  const B: [string, string] = ['C0BBBBBBB', '2.2'];
  const C: [string, string] = ['C0CCCCCCC', '3.3'];

  it.each([
    ['no parent yet', ['C0AAAAAAA', 'C0BBBBBBB'], [], ['C0AAAAAAA', 'C0BBBBBBB']],
    ['every channel has its parent, reordered', ['C0CCCCCCC', 'C0AAAAAAA', 'C0BBBBBBB'], [A, B, C], []],
    ['the last parent missing, reordered', ['C0AAAAAAA', 'C0CCCCCCC', 'C0BBBBBBB'], [A, B], ['C0CCCCCCC']],
    ['the first parent missing', ['C0AAAAAAA', 'C0BBBBBBB'], [B], ['C0AAAAAAA']],
    ['a channel replaced', ['C0AAAAAAA', 'C0CCCCCCC'], [A, B], ['C0CCCCCCC']],
    ['channels by name, parents by id', ['#ua-growth', 'C0AAAAAAA', '#ua-alerts'], [A, B, C], []],
    ['a name without its parent', ['C0AAAAAAA', '#ua-growth', '#ua-alerts'], [A, B], ['#ua-growth']],
    ['a renamed channel keeps the parent nobody claims', ['C0AAAAAAA', '#renamed'], [A, B], []],
    ['a renamed channel with no parent left', ['C0AAAAAAA', '#renamed'], [A], ['#renamed']],
  ])('%s', async (_name, channels, parents, lacking) => {
    expect(await channelsLackingParents({ channels }, incident(parents), idOf)).toEqual(lacking);
  });

  it('raises what stops Slack from naming a channel, other than "no such channel"', async () => {
    const failing = channelIds({
      channelId: async () => {
        throw new SlackDeliveryError('conversations.list', 'ratelimited');
      },
    });
    await expect(channelsLackingParents({ channels: ['#ua-alerts'] }, incident([A]), failing)).rejects.toThrow(
      'ratelimited',
    );
  });
});
