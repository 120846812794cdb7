/**
 * bench/alerts: one evaluation tick of 1,000 rules over 50 entities each (50,000 checks).
 * - pure evaluation: `evaluateRule` for every rule (views built beforehand, not timed);
 * - store writes: the tick's next states written as the scheduler's runners write them (one
 *   `applyEvaluation` per rule, 1,000 issued together) and as one `applyEvaluations` batch;
 * - Slack: the calls made when 1 % of the entities change state (250 open, 250 resolve), through
 *   the bot's gateway (its pacer at Slack's limits, per second instead of per minute) against the
 *   Slack test server; with the least time Slack's real per-minute limits allow for those calls.
 * Run: npm run build && node --expose-gc dist/bench/run.js alerts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateRule, owedWrite, type RuleEvaluation, type RuleState } from '../../src/alerts/index.js';
import { silentLogger } from '../../src/core/index.js';
import { deliverTransitions, type RuleThreads } from '../../src/delivery/index.js';
import type { ViewChartRenderer } from '../../src/render/index.js';
import type { PivotColumn, PivotRow } from '../../src/reporting/index.js';
import {
  buildView,
  compileReport,
  type LoadedReport,
  parseReportText,
  type ReportView,
} from '../../src/reports/index.js';
import { paceLowerBoundMs, slackGatewayFor } from '../../src/slackapi/index.js';
import { type EvaluationWrite, openStore, type Store } from '../../src/store/index.js';
import { SlackTestServer } from '../../test/support/slackTestServer.js';
import { fmt, median } from '../support/stats.js';

const RULES = 1_000;
const ENTITIES = 50;
const CHANNELS = 20;
/** Entities in breach per rule at the start (10 %): their incidents open on the first tick. */
const OPEN_AT_START = 5;
const ROUNDS = 5;
const T0 = Date.parse('2026-11-23T09:00:00.000Z');

const channel = (r: number) => `C0BENCH${String(r % CHANNELS).padStart(3, '0')}`;

/** One report per rule, so each rule has its own rows: CPI by campaign, a threshold at 6. */
function reports(): LoadedReport[] {
  const out: LoadedReport[] = [];
  for (let r = 0; r < RULES; r++) {
    const id = `report-${r}`;
    const text = `title: Report ${r}
query:
  dimensions: [campaignId]
  metrics: [installs, installsCpi]
  range: yesterday
  timezone: UTC
deliver:
  channels: [${channel(r)}]
alerts:
  - id: cpi-high
    metric: installsCpi
    above: 6
    recovery: 5
    minVolume: { metric: installs, value: 10 }
    renotify: 6h
`;
    const parsed = parseReportText(text, { file: `reports/${id}.yaml`, id, now: new Date(T0) });
    if (!parsed.report) throw new Error(JSON.stringify(parsed.problems));
    out.push(parsed.report);
  }
  return out;
}

const COLUMNS: PivotColumn[] = [
  { key: 'campaignId', kind: 'dimension', name: 'campaignId', args: {} },
  { key: 'installs', kind: 'metric', name: 'installs', args: {} },
  { key: 'installsCpi', kind: 'metric', name: 'installsCpi', args: {} },
];

/** The rule's rows: entity e breaches when `breaching(e)`. */
function view(report: LoadedReport, at: number, breaching: (e: number) => boolean): ReportView {
  const rows: PivotRow[] = [];
  for (let e = 0; e < ENTITIES; e++) {
    rows.push({
      campaignId: 1000 + e,
      installs: 100 + e,
      installsCpi: breaching(e) ? 7 + (e % 3) / 10 : 3 + (e % 7) / 10,
    });
  }
  const compiled = compileReport(report.definition, { now: new Date(at) });
  return buildView({
    id: report.id,
    definition: report.definition,
    compiled,
    result: { columns: COLUMNS, rows },
    mode: 'sync',
    warnings: [],
    generatedAt: new Date(at),
  });
}

function stateOf(store: Store, report: LoadedReport): RuleState {
  const evaluation = store.incidents.getEvaluation(report.id, 'cpi-high');
  return {
    incidents: store.incidents.listByReportRule(report.id, 'cpi-high'),
    ...(evaluation ? { evaluation } : {}),
  };
}

/** Every rule evaluated once at `at`; the evaluations and the pure time in ms. */
function tick(
  store: Store,
  all: readonly LoadedReport[],
  views: readonly ReportView[],
  at: number,
): { results: RuleEvaluation[]; ms: number } {
  const states = all.map((r) => stateOf(store, r));
  const started = performance.now();
  const results = all.map((report, i) =>
    evaluateRule({
      reportId: report.id,
      rule: report.definition.alerts[0] as LoadedReport['definition']['alerts'][number],
      current: views[i] as ReportView,
      state: states[i] as RuleState,
      now: new Date(at),
      channel: channel(i),
    }),
  );
  return { results, ms: performance.now() - started };
}

const writesOf = (results: readonly RuleEvaluation[]): EvaluationWrite[] => results.map((r) => r.nextState);

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pivotbot-bench-alerts-'));
  const slack = await new SlackTestServer().start();
  for (let c = 0; c < CHANNELS; c++) {
    const id = channel(c);
    slack.knownChannels.set(id, `bench-${c}`);
    slack.memberOf.add(id);
  }
  const logger = silentLogger();
  try {
    const all = reports();
    const steady = all.map((r) => view(r, T0, (e) => e < OPEN_AT_START));
    const changedViews = all.map((r, i) =>
      // 1 % of the 50,000 entities change state: one rule in four recovers entity 0, one in four breaches entity 10.
      view(r, T0, (e) => (i % 4 === 0 ? e > 0 && e < OPEN_AT_START : e < OPEN_AT_START || (i % 4 === 1 && e === 10))),
    );

    // Pure evaluation, on a store the first tick filled (5,000 open incidents).
    const evalStore = await openStore({ path: join(dir, 'eval', 'store.json'), logger });
    const first = tick(evalStore, all, steady, T0);
    await evalStore.incidents.applyEvaluations(writesOf(first.results));
    const pure: number[] = [];
    let checks = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      globalThis.gc?.();
      const t = tick(evalStore, all, steady, T0 + round * 60_000);
      pure.push(t.ms);
      checks = t.results.reduce((n, r) => n + r.nextState.evaluation.evaluated, 0);
    }
    console.log(
      `pure evaluation: ${RULES} rules × ${ENTITIES} entities (${checks} checks): median ${fmt(median(pure))} ms per tick ` +
        `(${ROUNDS} ticks; first tick, opening ${first.results.reduce((n, r) => n + r.transitions.length, 0)} incidents: ${fmt(first.ms)} ms)`,
    );

    // Store writes: one per rule evaluation, as the scheduler's runners issue them, and one batch.
    const perRule: number[] = [];
    const batch: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const next = tick(evalStore, all, steady, T0 + (ROUNDS + round) * 60_000).results;
      let t = performance.now();
      await Promise.all(writesOf(next).map((w) => evalStore.incidents.applyEvaluation(w)));
      perRule.push(performance.now() - t);
      const again = tick(evalStore, all, steady, T0 + (ROUNDS + round) * 60_000 + 30_000).results;
      t = performance.now();
      await evalStore.incidents.applyEvaluations(writesOf(again));
      batch.push(performance.now() - t);
    }
    const incidents = evalStore.incidents.listOpen().length;
    await evalStore.close();
    console.log(
      `store writes per tick (${incidents} open incidents updated, ${RULES} evaluation records): ` +
        `${RULES} applyEvaluation calls issued together median ${fmt(median(perRule))} ms; ` +
        `one applyEvaluations median ${fmt(median(batch))} ms (3 ticks each)`,
    );

    // Slack: the tick where 1 % of the entities change state, posted through the gateway.
    const store = await openStore({ path: join(dir, 'slack', 'store.json'), logger });
    const opened = tick(store, all, steady, T0);
    await store.incidents.applyEvaluations(writesOf(opened.results));
    // The opening tick's parents are recorded as posted, so only the 1 % change is measured.
    let seq = 0;
    const recorded = store.incidents.listOpen().map((incident) => {
      const ts = `1700000000.${String(++seq).padStart(6, '0')}`;
      slack.messages.push({ channel: incident.channel, ts, text: 'parent', blocks: [] });
      return { ...incident, threadTs: ts };
    });
    const [evaluation] = store.incidents.listEvaluations();
    if (evaluation) await store.incidents.applyEvaluations([{ evaluation, incidents: recorded }]);
    const gateway = slackGatewayFor({ botToken: 'xoxb-bench', apiUrl: slack.apiUrl }, logger, {
      rateLimits: { windowMs: 1_000 },
      retry: { retries: 2, factor: 2, minTimeout: 50, maxTimeout: 200, maxRetryTime: 5_000 },
    }).withLane('scheduled');
    const changeAt = T0 + 3_600_000;
    const changed = tick(store, all, changedViews, changeAt);
    const transitions = changed.results.reduce((n, r) => n + r.transitions.length, 0);
    // With the outbox, as the runner writes it: the replies and edits owed are delivered from it.
    await store.incidents.applyEvaluations(
      changed.results.map((r) => owedWrite(r, new Date(changeAt), (id) => store.incidents.get(id))),
    );
    const noCharts: ViewChartRenderer = { renderView: async () => null };
    const deps = {
      slack: gateway,
      charts: noCharts,
      store,
      logger,
      clock: () => new Date(changeAt),
      defaultTimeZone: 'UTC',
    };
    const before = slack.calls.length;
    const started = performance.now();
    let parents = 0;
    let replies = 0;
    let edits = 0;
    await Promise.all(
      all.map(async (report, i) => {
        const result = changed.results[i] as RuleEvaluation;
        if (
          result.transitions.length === 0 &&
          !store.incidents.listOpen().some((x) => x.reportId === report.id && !x.threadTs)
        )
          return;
        const threads: RuleThreads = {
          report,
          rule: report.definition.alerts[0] as RuleThreads['rule'],
          channels: [channel(i)],
          rangeLabel: 'Yesterday',
          timezone: 'UTC',
          now: new Date(changeAt),
        };
        const out = await deliverTransitions(threads, result.transitions, deps, { attempt: 1 });
        parents += out.parents;
        replies += out.replies;
        edits += out.edits;
      }),
    );
    const ms = performance.now() - started;
    const calls = slack.calls.slice(before);
    const byMethod: Record<string, number> = {};
    for (const call of calls) byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
    const perChannel: Record<string, number> = {};
    const posts = new Map<string, number>();
    for (const call of calls.filter((c) => c.method === 'chat.postMessage')) {
      const c = String(call.args.channel);
      posts.set(c, (posts.get(c) ?? 0) + 1);
    }
    perChannel['chat.postMessage'] = Math.max(0, ...posts.values());
    await store.close();
    console.log(
      `1 % of entities change state: ${transitions} transitions → ${calls.length} Slack calls ` +
        `(${Object.entries(byMethod)
          .map(([m, n]) => `${m} ${n}`)
          .join(', ')}; ${parents} parents, ${replies} replies, ${edits} parent edits) over ${CHANNELS} channels`,
    );
    console.log(
      `  through the gateway at Slack's limits per second (60× Slack's per-minute window): ${fmt(ms / 1000, 2)} s; ` +
        `least time at Slack's real per-minute limits: ${fmt(paceLowerBoundMs(byMethod, undefined, perChannel) / 1000, 0)} s`,
    );
  } finally {
    await slack.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
