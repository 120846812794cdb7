import { createCanvas, loadImage } from '@napi-rs/canvas';
import {
  alertChartSpec,
  buildChartConfig,
  ChartRenderer,
  type ChartSpec,
  viewMayHaveChart,
} from '../../../src/render/index.js';
import type { ReportView } from '../../../src/view/index.js';
import { shareView, stackedView, timeSeriesView, topNView } from '../../support/renderFixtures.js';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('ChartRenderer', () => {
  const renderer = new ChartRenderer();

  it('renders a PNG at twice the logical size', async () => {
    const spec = buildChartConfig(timeSeriesView());
    if (!spec) throw new Error('no chart');
    const png = await renderer.render(spec);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(pngSize(png)).toEqual({ width: spec.width * 2, height: spec.height * 2 });
    expect(png.length).toBeGreaterThan(10_000);
  });

  it('draws each render on its own canvas: the same spec gives the same PNG every time', async () => {
    const spec = buildChartConfig(timeSeriesView());
    const bars = buildChartConfig(topNView());
    if (!spec || !bars) throw new Error('no chart');
    const first = await renderer.render(spec);
    await renderer.render(bars);
    expect((await renderer.render(spec)).equals(first)).toBe(true);
  });

  it('draws the same pixels on a kept chart as on a new one, whatever was drawn on it before', async () => {
    // One renderer keeps a chart per size and updates it with each config; every chart here
    // follows others of its size with other types, datasets, stacking, axes and lengths.
    const spec = (view: ReportView, kind: 'main' | 'share' = 'main'): ChartSpec => {
      const built =
        kind === 'main' ? buildChartConfig(view) : buildChartConfig(view, { kind: 'share', x: 'value', series: [] });
      if (!built) throw new Error('no chart');
      return built;
    };
    const points = [5.1, 5.6, 7.1, 6.2, 4.8].map((value, i) => ({ at: `2026-11-1${i}T00:00:00Z`, value }));
    const metric = {
      key: 'installsCpi',
      label: 'CPI',
      unit: 'currency' as const,
      polarity: 'lower_is_better' as const,
    };
    const alert = alertChartSpec({
      title: 'CPI unusual',
      metric,
      points,
      band: { low: 4, high: 6.5 },
      timezone: 'UTC',
    });
    if (!alert) throw new Error('no alert chart');
    const sequence = [
      spec(timeSeriesView(90)),
      spec(topNView(10)),
      spec(stackedView()),
      spec(timeSeriesView(7)),
      alert,
      spec(shareView(), 'share'),
      spec(topNView(3)),
      spec(stackedView()),
      spec(timeSeriesView(30)),
      spec(topNView(14)),
      spec(timeSeriesView(90)),
    ];
    const kept = new ChartRenderer();
    for (const [i, s] of sequence.entries()) {
      const reused = await kept.render(s);
      const fresh = await new ChartRenderer().render(s);
      expect([i, reused.equals(fresh)]).toEqual([i, true]);
    }
    expect(kept.canvasCount).toBeLessThan(sequence.length);
  }, 60_000);

  it('paints a white background, not a transparent one, at every chart size', async () => {
    // A short chart first, then a taller one: the background must cover the taller one too.
    for (const view of [timeSeriesView(), topNView()]) {
      const spec = buildChartConfig(view);
      if (!spec) throw new Error('no chart');
      const image = await loadImage(await renderer.render(spec));
      const canvas = createCanvas(image.width, image.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(image, 0, 0);
      // The top-left corner and the bottom-right corner are background.
      expect([...ctx.getImageData(1, 1, 1, 1).data]).toEqual([255, 255, 255, 255]);
      expect([...ctx.getImageData(image.width - 2, image.height - 2, 1, 1).data]).toEqual([255, 255, 255, 255]);
    }
  });

  it('does not mutate the config it is given', async () => {
    const spec = buildChartConfig(timeSeriesView());
    if (!spec) throw new Error('no chart');
    await renderer.render(spec);
    expect(spec.config.options?.animation).toBeUndefined();
  });

  it('says a view may have a chart whenever it has one (viewMayHaveChart is never wrong the other way)', async () => {
    const { chart: _chart, ...noChart } = timeSeriesView();
    const views = [
      timeSeriesView(),
      stackedView(),
      topNView(),
      shareView(),
      noChart as typeof noChart & { chart?: never },
    ];
    let charts = 0;
    for (const view of views) {
      for (const kind of ['main', 'share'] as const) {
        const chart = await renderer.renderView(view, kind);
        if (chart) {
          charts++;
          expect(viewMayHaveChart(view, kind)).toBe(true);
        }
      }
    }
    expect(charts).toBeGreaterThanOrEqual(4);
    expect(viewMayHaveChart(noChart, 'main')).toBe(false);
    expect(viewMayHaveChart(timeSeriesView(), 'share')).toBe(false);
    expect(viewMayHaveChart(shareView(), 'share')).toBe(true);
  });
});
