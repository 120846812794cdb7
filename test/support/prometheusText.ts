/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4, what `prom-client`
 * writes and Prometheus scrapes): every line a `# HELP`, a `# TYPE`, another comment, a blank line
 * or a sample; every sample of a declared family (histograms' `_bucket`, `_sum`, `_count`);
 * names, label names and escapes as the format allows. Anything else throws with the line number,
 * so a test that parses `/metrics` also checks that Prometheus could read it.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The series' name: the family's, or with `_bucket`, `_sum`, `_count` for a histogram. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<MetricType, readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/**
 * The families of an exposition, by name.
 *
 * @example parsePrometheusText('# TYPE up gauge\nup 1\n').get('up')?.samples[0]?.value; // 1
 */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) return; // another comment
      const [, keyword, name = '', rest = ''] = match;
      if (!METRIC_NAME.test(name)) fail('bad metric name');
      const family = families.get(name) ?? { name, type: 'untyped' as MetricType, help: '', samples: [] };
      if (keyword === 'TYPE') {
        if (!TYPES.has(rest as MetricType)) fail('unknown type');
        if (family.samples.length > 0) fail('TYPE after samples');
        family.type = rest as MetricType;
      } else {
        family.help = unescaped(rest, false, fail);
      }
      families.set(name, family);
      return;
    }
    const sample = parseSample(line, fail);
    const family = familyOf(families, sample.name);
    if (!family) fail('a sample of no declared family');
    family?.samples.push(sample);
  });
  for (const family of families.values()) {
    if (family.type === 'histogram') checkHistogram(family);
  }
  return families;
}

function familyOf(families: Map<string, MetricFamily>, series: string): MetricFamily | undefined {
  for (const family of families.values()) {
    if (SUFFIXES[family.type].some((suffix) => `${family.name}${suffix}` === series)) return family;
  }
  return undefined;
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (!name) return fail('no metric name');
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at));
      const labelName = label?.[1];
      if (!label || !labelName || !LABEL_NAME.test(labelName)) return fail(`bad label at column ${at + 1}`);
      at += label[0].length;
      let raw = '';
      while (line[at] !== '"') {
        if (at >= line.length) fail('unterminated label value');
        if (line[at] === '\\') {
          raw += line.slice(at, at + 2);
          at += 2;
        } else raw += line[at++];
      }
      at++;
      if (labelName in labels) fail(`label ${labelName} twice`);
      labels[labelName] = unescaped(raw, true, fail);
      if (line[at] === ',') at++;
      else if (line[at] !== '}') fail(`expected , or } at column ${at + 1}`);
    }
    at++;
  }
  const rest = line.slice(at);
  const parts = /^ (\S+)(?: (-?\d+))?$/.exec(rest);
  if (!parts?.[1]) return fail('bad value');
  return { name, labels, value: parseValue(parts[1], fail) };
}

/**
 * A sample's value as Prometheus reads it (Go's `strconv.ParseFloat`): `Inf`, `Infinity` and `NaN`
 * in any case — prom-client writes `Nan` for a summary with no observations yet.
 */
function parseValue(text: string, fail: (why: string) => never): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) fail(`bad number ${text}`);
  return Number(text);
}

function unescaped(raw: string, quoted: boolean, fail: (why: string) => never): string {
  return raw.replace(/\\(.)/g, (_all, char: string) => {
    if (char === '\\') return '\\';
    if (char === 'n') return '\n';
    if (char === '"' && quoted) return '"';
    return fail(`bad escape \\${char}`);
  });
}

/** Every histogram series: buckets that never decrease, ending in `+Inf` equal to `_count`. */
function checkHistogram(family: MetricFamily): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  const keyOf = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([name]) => name !== 'le')
        .sort(),
    );
  for (const sample of family.samples) {
    const key = keyOf(sample.labels);
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith('_bucket')) {
      const le = sample.labels.le;
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), sample.value]);
    } else if (sample.name.endsWith('_count')) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    const last = buckets.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY || last[1] !== count) {
      throw new Error(`${family.name}${key}: the +Inf bucket is not _count`);
    }
    for (let i = 1; i < buckets.length; i++) {
      const [le, n] = buckets[i] as [number, number];
      const [prevLe, prevN] = buckets[i - 1] as [number, number];
      if (le <= prevLe || n < prevN) throw new Error(`${family.name}${key}: buckets out of order`);
    }
  }
}

/**
 * The sum of a family's samples named `series` whose labels include `labels` (0 when none).
 *
 * @example sampleSum(families, 'pivotbot_slots_posted_total', { report: 'daily' });
 */
export function sampleSum(
  families: Map<string, MetricFamily>,
  series: string,
  labels: Record<string, string> = {},
): number {
  const family = familyOf(families, series);
  if (!family) return 0;
  return family.samples
    .filter((s) => s.name === series && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
