import { shortLabel, shortTitle } from '../../../src/render/chartData.js';
import { axesByUnit, buildChartConfig, type SeriesDraft } from '../../../src/render/index.js';
import { hugeView, shareView, stackedView, timeSeriesView, topNView } from '../../support/renderFixtures.js';

type Scale = {
  position?: string;
  ticks?: { callback?: (v: number | string) => string };
  title?: { display?: boolean; text?: string };
};
type Dataset = {
  label?: string;
  type?: string;
  borderDash?: number[];
  yAxisID?: string;
  xAxisID?: string;
  data: unknown[];
};

function parts(view = timeSeriesView()) {
  const spec = buildChartConfig(view);
  if (!spec) throw new Error('no chart');
  const datasets = spec.config.data.datasets as unknown as Dataset[];
  const scales = (spec.config.options?.scales ?? {}) as Record<string, Scale>;
  return { spec, datasets, scales };
}

describe('buildChartConfig', () => {
  it('puts a second axis on the right when the units differ (spend vs installs)', () => {
    const { datasets, scales } = parts();
    const spend = datasets.find((d) => d.label === 'Spend');
    const installs = datasets.find((d) => d.label === 'Installs');
    expect(spend?.yAxisID).toBe('value');
    expect(installs?.yAxisID).toBe('value1');
    expect(scales.value?.position).toBe('left');
    expect(scales.value1?.position).toBe('right');
    expect(scales.value?.title).toMatchObject({ display: true, text: 'Spend' });
  });

  it('keeps one axis when every series has the same unit', () => {
    const view = timeSeriesView();
    view.chart = { kind: 'line', x: 'date', series: ['spend', 'installsCpi'] };
    const { scales } = parts(view);
    expect(Object.keys(scales).filter((k) => k.startsWith('value'))).toEqual(['value']);
  });

  it('formats ticks by unit', () => {
    const { scales } = parts();
    expect(scales.value?.ticks?.callback?.(1200)).toBe('$1.2K');
    expect(scales.value1?.ticks?.callback?.(3_400_000)).toBe('3.4M');
    const ratio = timeSeriesView();
    ratio.columns = [
      ...ratio.columns,
      { key: 'ctr', kind: 'metric', name: 'ctr', args: {}, label: 'CTR', unit: 'ratio', polarity: 'higher_is_better' },
    ];
    ratio.chart = { kind: 'line', x: 'date', series: ['ctr'] };
    expect(parts(ratio).scales.value?.ticks?.callback?.(0.12)).toBe('12.0%');
  });

  it('draws the comparison period as dashed series on the same axes', () => {
    const { datasets } = parts();
    const dashed = datasets.filter((d) => (d.borderDash?.length ?? 0) > 0);
    expect(dashed.map((d) => d.label)).toEqual(['Spend (previous period)', 'Installs (previous period)']);
    expect(dashed[1]?.yAxisID).toBe('value1');
    expect(dashed[0]?.data).toHaveLength(7);
  });

  it('has no comparison series without a comparison', () => {
    const { comparison: _c, ...view } = timeSeriesView();
    const { datasets } = parts(view);
    expect(datasets.every((d) => (d.borderDash?.length ?? 0) === 0)).toBe(true);
  });

  it('adds a threshold line on the axis of its metric', () => {
    const view = timeSeriesView();
    view.chart = {
      kind: 'line',
      x: 'date',
      series: ['spend', 'installsCpi'],
      thresholds: [{ metric: 'installsCpi', value: 2.4, label: 'CPI alert $2.40' }],
    };
    const { datasets } = parts(view);
    const line = datasets.find((d) => d.label === 'CPI alert $2.40');
    expect(line?.data).toEqual(Array(7).fill(2.4));
    expect(line?.borderDash).toEqual([4, 4]);
    expect(line?.yAxisID).toBe('value');
  });

  it('titles the chart with the range and the time zone, and describes it in alt text', () => {
    const { spec } = parts();
    const plugins = spec.config.options?.plugins as { title: { text: string }; subtitle: { text: string[] } };
    expect(plugins.title.text).toBe('Daily KPIs');
    expect(plugins.subtitle.text).toEqual(['Last 7 days (13–19 Nov 2026) · UTC', 'dashed: previous 7 days (6–12 Nov)']);
    expect(spec.alt).toBe('Line chart of Spend and Installs by Date, Last 7 days (13–19 Nov 2026) (UTC)');
    expect(spec.config.options?.devicePixelRatio).toBe(2);
  });

  it('draws top-N as horizontal bars with pale previous-period bars', () => {
    const { spec, datasets } = parts(topNView());
    expect(spec.config.options?.indexAxis).toBe('y');
    expect(spec.config.data.labels).toHaveLength(10);
    expect(datasets.map((d) => d.label)).toEqual(['Spend', 'Spend (previous period)']);
    expect(datasets[0]?.xAxisID).toBe('value');
  });

  it('caps bars at 20 and says so', () => {
    const { spec } = parts(hugeView());
    expect(spec.config.data.labels).toHaveLength(20);
    const plugins = spec.config.options?.plugins as { subtitle: { text: string[] }; title: { text: string } };
    expect(plugins.subtitle.text[0]).toMatch(/^Top 20 of 150 · /);
    expect(plugins.title.text.length).toBeLessThanOrEqual(44);
  });

  it('stacks one dataset per stack value', () => {
    const { spec, datasets } = parts(stackedView());
    expect(datasets.map((d) => d.label)).toEqual(['IOS', 'ANDROID', 'CTV']);
    const scales = (spec.config.options?.scales ?? {}) as Record<string, { stacked?: boolean }>;
    expect(scales.x?.stacked).toBe(true);
  });

  it('charts postbackShare distributions as 100% stacked bars per key', () => {
    const { spec, datasets } = parts(shareView());
    expect(spec.config.data.labels).toEqual(['currency', 'tier']);
    const usd = datasets.find((d) => d.label === 'USD');
    expect(usd?.data).toEqual([52, 50]);
  });

  it('returns null when there is nothing to chart', () => {
    const { chart: _chart, ...view } = timeSeriesView();
    expect(buildChartConfig(view)).toBeNull();
  });
});

describe('axesByUnit', () => {
  const draft = (unit: SeriesDraft['unit'], extra: Partial<SeriesDraft> = {}): SeriesDraft => ({
    label: unit,
    data: [],
    unit,
    colour: '#000',
    ...extra,
  });
  it('gives each new unit its own axis, in order of first use', () => {
    expect([...axesByUnit([draft('currency'), draft('count'), draft('currency')]).entries()]).toEqual([
      ['currency', 'value'],
      ['count', 'value1'],
    ]);
  });
  it('does not give a threshold of another unit an axis of its own', () => {
    expect(new Set(axesByUnit([draft('currency'), draft('count', { threshold: true })]).values())).toEqual(
      new Set(['value']),
    );
  });
});

describe('labels', () => {
  it('keeps both ends of long category names, which share prefixes', () => {
    expect(shortLabel('Merge Kingdom · Android · RTGT · FR · ROAS #3')).toBe('Merge Kingd…· ROAS #3');
    expect(shortLabel('short')).toBe('short');
  });
  it('cuts titles at the end, on a word', () => {
    expect(shortTitle('Weekly campaign performance for every market we buy in', 30)).toBe(
      'Weekly campaign performance…',
    );
  });
});
