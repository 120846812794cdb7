/**
 * deploy/grafana-dashboard.json and deploy/prometheus-rules.yaml against what the bot exports: the
 * files parse, and every PromQL expression names only metrics of `src/metrics/` (histograms with
 * `_bucket`, `_sum`, `_count`; `up` is Prometheus' own) and only labels those metrics carry.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createMetrics, metricNames } from '../../../src/metrics/index.js';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** PromQL's functions and aggregations the files may call. */
const FUNCTIONS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'clamp_min',
  'absent',
]);
const KEYWORDS = new Set(['by', 'without', 'and', 'or', 'unless', 'bool', 'offset', 'on', 'ignoring']);
/** Labels Prometheus adds to every series it scrapes. */
const TARGET_LABELS = ['job', 'instance'];

interface Exported {
  series: Set<string>;
  labels: Map<string, Set<string>>;
}

async function exported(): Promise<Exported> {
  const metrics = createMetrics({ defaultMetrics: true });
  const series = new Set<string>(['up']);
  const labels = new Map<string, Set<string>>([['up', new Set(TARGET_LABELS)]]);
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name, type, labelNames = [] } = metric as unknown as { name: string; type: string; labelNames?: string[] };
    const names = type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
    for (const n of names) {
      series.add(n);
      labels.set(n, new Set([...labelNames, ...TARGET_LABELS, ...(n.endsWith('_bucket') ? ['le'] : [])]));
    }
  }
  return { series, labels };
}

/**
 * The metrics and labels an expression names, read by a small PromQL scanner: string literals,
 * ranges, label matchers, `by`/`without` lists, functions and keywords are told apart; anything it
 * cannot read throws.
 */
function namesIn(expr: string): { metrics: Array<{ name: string; labels: string[] }>; grouping: string[] } {
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '"S"');
  const grouping: string[] = [];
  rest = rest.replace(/\b(by|without)\s*\(([^)]*)\)/g, (_all, _kw: string, list: string) => {
    grouping.push(...list.split(',').map((l) => l.trim()));
    return ' ';
  });
  rest = rest.replace(/\[([^\]]*)\]/g, (_all, range: string) => {
    if (!/^(\d+[smhdwy]|\$__rate_interval)$/.test(range)) throw new Error(`bad range [${range}] in ${expr}`);
    return ' ';
  });
  const metrics: Array<{ name: string; labels: string[] }> = [];
  const token = /([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?\s*(\()?|(\d+(?:\.\d+)?)|([-+*/><=!(),\s]+)/y;
  let at = 0;
  while (at < rest.length) {
    token.lastIndex = at;
    const match = token.exec(rest);
    if (!match) throw new Error(`cannot read "${rest.slice(at)}" in ${expr}`);
    at = token.lastIndex;
    const [, ident, matchers, call] = match;
    if (!ident) continue;
    if (call) {
      if (!FUNCTIONS.has(ident)) throw new Error(`unknown function ${ident} in ${expr}`);
      // An aggregation's own "(" was consumed: scan on from there.
      continue;
    }
    if (KEYWORDS.has(ident)) continue;
    const labels = (matchers ?? '{}')
      .slice(1, -1)
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== '')
      .map((m) => {
        const pair = /^([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"S"$/.exec(m);
        if (!pair?.[1]) throw new Error(`bad matcher ${m} in ${expr}`);
        return pair[1];
      });
    metrics.push({ name: ident, labels });
  }
  return { metrics, grouping };
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(read('deploy/grafana-dashboard.json')) as {
    panels: Array<{ id: number; type: string; gridPos: { x: number; w: number }; targets?: Array<{ expr: string }> }>;
  };
  const ids = dashboard.panels.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const panel of dashboard.panels) expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
  return dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

function ruleExpressions(): Array<{ alert: string; expr: string }> {
  const file = parse(read('deploy/prometheus-rules.yaml')) as {
    kind: string;
    spec: { groups: Array<{ name: string; rules: Array<Record<string, unknown>> }> };
  };
  expect(file.kind).toBe('PrometheusRule');
  return file.spec.groups.flatMap((g) =>
    g.rules.map((rule) => {
      expect(typeof rule.alert).toBe('string');
      expect(typeof rule.expr).toBe('string');
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
      expect((rule.labels as Record<string, string>).severity).toMatch(/^(page|warning)$/);
      expect(typeof (rule.annotations as Record<string, string>).summary).toBe('string');
      return { alert: rule.alert as string, expr: rule.expr as string };
    }),
  );
}

describe('deploy/ monitoring files', () => {
  it('every dashboard and rule expression names only exported metrics and their labels', async () => {
    const { series, labels } = await exported();
    const expressions = [...dashboardExpressions(), ...ruleExpressions().map((r) => r.expr)];
    expect(expressions.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const expr of expressions) {
      const { metrics, grouping } = namesIn(expr);
      if (metrics.length === 0) problems.push(`no metric in ${expr}`);
      for (const { name, labels: used } of metrics) {
        if (!series.has(name)) problems.push(`${name} is not exported (${expr})`);
        for (const label of used) if (!labels.get(name)?.has(label)) problems.push(`${name} has no label ${label}`);
      }
      const known = new Set(metrics.flatMap((m) => [...(labels.get(m.name) ?? [])]));
      for (const label of grouping) if (!known.has(label)) problems.push(`no metric of ${expr} has ${label}`);
    }
    expect(problems).toEqual([]);
  });

  it('has the three alerts the operators asked for', () => {
    const rules = ruleExpressions();
    const find = (name: string) => rules.find((r) => r.alert === name)?.expr;
    expect(find('PivotbotSlotLate')).toContain('pivotbot_slot_oldest_due_seconds');
    expect(find('PivotbotSlotLate')).toMatch(/> 900$/);
    expect(find('PivotbotReportingFailing')).toMatch(/pivotbot_reporting_requests_total.*> 0\.2$/s);
    expect(find('PivotbotSlackRateLimited')).toContain('pivotbot_slack_rate_limited_total');
  });

  it('reads PromQL as the files write it, and refuses what it cannot name', () => {
    expect(namesIn('sum by (le, kind) (rate(pivotbot_x_bucket{job=~"$job", a!="b"}[5m])) > 0.2')).toEqual({
      metrics: [{ name: 'pivotbot_x_bucket', labels: ['job', 'a'] }],
      grouping: ['le', 'kind'],
    });
    expect(() => namesIn('frobnicate(pivotbot_x)')).toThrow('unknown function frobnicate');
    expect(() => namesIn('rate(pivotbot_x[5 minutes])')).toThrow('bad range');
  });

  it('lists metric names from the metrics module, the dashboard’s source of truth', async () => {
    const names = await metricNames();
    expect(names).toEqual(expect.arrayContaining(['pivotbot_slots_posted_total', 'process_resident_memory_bytes']));
  });
});
