/**
 * Chart.js configurations → PNG, in process. One `ChartJSNodeCanvas` per size, created on first
 * use and reused (a new instance per chart leaks memory: chartjs-node-canvas issue #138); the
 * project's own font is registered once, before any canvas exists, so output is identical on
 * every machine; the background is white (a transparent PNG looks broken in Slack's dark mode).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChartJSNodeCanvas } from 'chartjs-node-canvas';
import type { ReportView } from '../reports/ReportView.js';
import { buildChartConfig } from './buildChartConfig.js';
import type { AnyChartConfig, ChartSpec } from './chartStyle.js';
import { BACKGROUND_COLOUR, TEXT_COLOUR } from './palette.js';
import { chartablePostbackKeys } from './shareChart.js';

/** The family name inside the shipped TTF files. */
export const CHART_FONT_FAMILY = 'DejaVu Sans';
const FONT_FILES = [
  { file: 'DejaVuSans.ttf', weight: 'normal' },
  { file: 'DejaVuSans-Bold.ttf', weight: 'bold' },
] as const;

/** Finds `assets/fonts` by walking up from this file: it works from `src/` and from `dist/src/`. */
export function findFontDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'assets', 'fonts');
    if (existsSync(join(candidate, FONT_FILES[0].file))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`chart fonts not found: no assets/fonts/${FONT_FILES[0].file} above ${start}`);
    dir = parent;
  }
}

let fontsRegistered = false;

/**
 * Paints the background behind each chart, at that chart's size. Not the library's
 * `backgroundColour` option: its plugin is registered on Chart.js with a fixed id and size, and
 * when Chart.js is shared by two canvas sizes (as under jest, which bypasses the require cache the
 * library clears), the first size's plugin wins and taller charts get a transparent band.
 */
const WHITE_BACKGROUND = {
  id: 'pivotbot-background',
  beforeDraw(chart: {
    ctx: {
      save(): void;
      restore(): void;
      fillRect(x: number, y: number, w: number, h: number): void;
      globalCompositeOperation: string;
      fillStyle: string;
    };
    width: number;
    height: number;
  }) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = BACKGROUND_COLOUR;
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** What chartjs-node-canvas's `renderChart` returns: a drawn Chart.js chart on a node-canvas. */
interface DrawnChart {
  canvas: PngCanvas;
  destroy(): void;
}

interface PngCanvas {
  toBuffer(
    callback: (error: Error | null, buffer: Buffer) => void,
    mimeType: 'image/png',
    options: { compressionLevel: number; filters: number },
  ): void;
  PNG_FILTER_NONE?: number;
}

/**
 * PNG encoding, not drawing, is most of a render with the library's defaults (zlib level 6, every
 * row filter tried): level 1 without filters is about 3× faster for a few percent more bytes on
 * flat chart graphics (docs/benchmarks.md). The callback form encodes off the main thread.
 */
export const PNG_OPTIONS = { compressionLevel: 1 } as const;

function encodePng(canvas: PngCanvas): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    canvas.toBuffer((error, buffer) => (error ? reject(error) : resolve(buffer)), 'image/png', {
      ...PNG_OPTIONS,
      filters: canvas.PNG_FILTER_NONE ?? 8,
    });
  });
}

/** A drawn chart: the PNG and the alt text that goes with it. */
export interface RenderedChart {
  data: Buffer;
  alt: string;
}

/** Which chart of a view: the report's own, or its postback share chart. */
export type ViewChartKind = 'main' | 'share';

/**
 * What delivering a result needs from rendering: a view in, its chart out. `ChartRenderer` draws
 * in the calling thread, `ChartProcessRenderer` in a child process.
 */
export interface ViewChartRenderer {
  /** The chart of `view` (or its postback share chart); null when it has none. */
  renderView(view: ReportView, kind?: ViewChartKind): Promise<RenderedChart | null>;
}

/** The chart spec of a view (or of its postback share chart); null when it has none. */
function viewChartSpec(view: ReportView, kind: ViewChartKind): ChartSpec | null {
  return kind === 'share' ? buildChartConfig(view, { kind: 'share', x: 'value', series: [] }) : buildChartConfig(view);
}

/**
 * False when a view certainly has no such chart, decided without building one: a renderer in
 * another process need not be sent a 17k-row view to answer "no chart".
 */
export function viewMayHaveChart(view: ReportView, kind: ViewChartKind = 'main'): boolean {
  const postbacks = chartablePostbackKeys(view).length > 0;
  return kind === 'share' ? postbacks : view.chart !== undefined || postbacks;
}

export interface ChartRendererOptions {
  /** Where the TTF files are; found by walking up from this module by default. */
  fontDir?: string;
}

/**
 * Renders chart specs to PNG buffers at 2× pixel density, reusing one canvas per size.
 *
 * @example const png = await new ChartRenderer().render(buildChartConfig(view));
 */
export class ChartRenderer implements ViewChartRenderer {
  readonly #canvases = new Map<string, ChartJSNodeCanvas>();
  /** The last render queued on each canvas, so the next one waits for it. */
  readonly #busy = new Map<string, Promise<void>>();
  readonly #fontDir: string | undefined;

  constructor(options: ChartRendererOptions = {}) {
    this.#fontDir = options.fontDir;
  }

  /** How many canvases exist: one per distinct size rendered so far. */
  get canvasCount(): number {
    return this.#canvases.size;
  }

  async renderView(view: ReportView, kind: ViewChartKind = 'main'): Promise<RenderedChart | null> {
    const spec = viewChartSpec(view, kind);
    return spec ? { data: await this.render(spec), alt: spec.alt } : null;
  }

  /** A PNG of the spec, `spec.width × 2` by `spec.height × 2` pixels. */
  async render(spec: ChartSpec): Promise<Buffer> {
    return this.renderConfig(spec.config, spec.width, spec.height);
  }

  /**
   * A PNG of any Chart.js configuration at a logical size (benchmarks use it directly). Renders on
   * one canvas run one after another: the PNG is encoded off the main thread, and a second chart
   * drawn on the same canvas meanwhile would corrupt it (or stall the encoder).
   */
  renderConfig(config: AnyChartConfig, width: number, height: number): Promise<Buffer> {
    const key = `${width}x${height}`;
    const previous = this.#busy.get(key) ?? Promise.resolve();
    const next = previous.then(
      () => this.#renderNow(config, width, height),
      () => this.#renderNow(config, width, height),
    );
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.#busy.set(key, settled);
    void settled.then(() => {
      if (this.#busy.get(key) === settled) this.#busy.delete(key);
    });
    return next;
  }

  async #renderNow(config: AnyChartConfig, width: number, height: number): Promise<Buffer> {
    // chartjs-node-canvas sets `responsive` and `animation` on the object it gets; hand it a copy.
    const own = {
      ...config,
      options: { ...config.options },
      plugins: [...(config.plugins ?? []), WHITE_BACKGROUND],
    } as Parameters<ChartJSNodeCanvas['renderToBuffer']>[0];
    const canvas = this.#canvas(width, height);
    const draw = (canvas as unknown as { renderChart?: (c: typeof own) => DrawnChart }).renderChart;
    if (typeof draw !== 'function') return canvas.renderToBuffer(own, 'image/png');
    const chart = draw.call(canvas, own);
    try {
      return await encodePng(chart.canvas);
    } finally {
      chart.destroy();
    }
  }

  #canvas(width: number, height: number): ChartJSNodeCanvas {
    const key = `${width}x${height}`;
    let canvas = this.#canvases.get(key);
    if (!canvas) {
      canvas = new ChartJSNodeCanvas({
        width,
        height,
        chartCallback: (ChartJS) => {
          ChartJS.defaults.font.family = `'${CHART_FONT_FAMILY}', sans-serif`;
          ChartJS.defaults.color = TEXT_COLOUR;
        },
      });
      if (!fontsRegistered) {
        // Fonts register process-wide in canvas; it must happen before the first canvas is drawn.
        const dir = this.#fontDir ?? findFontDir();
        for (const font of FONT_FILES) {
          canvas.registerFont(join(dir, font.file), { family: CHART_FONT_FAMILY, weight: font.weight });
        }
        fontsRegistered = true;
      }
      this.#canvases.set(key, canvas);
    }
    return canvas;
  }
}

let shared: ChartRenderer | undefined;

/** The process-wide renderer: every caller shares its canvases. */
export function sharedChartRenderer(): ChartRenderer {
  shared ??= new ChartRenderer();
  return shared;
}
