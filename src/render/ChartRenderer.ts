/**
 * Chart.js configurations → PNG, in process, on Skia (`@napi-rs/canvas`, shipped as npm platform
 * packages: nothing to compile, nothing to install). The project's own fonts are registered once,
 * so output is identical on every machine; the background is white (a transparent PNG looks
 * broken in Slack's dark mode). A render draws and encodes synchronously, start to end, so renders
 * share one canvas per size without disturbing each other, and one Chart.js chart per size: the
 * next chart of that size replaces its type, data and options and redraws, which costs about half
 * of building a chart (docs/benchmarks.md) and draws the same pixels (a test compares them).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Canvas } from '@napi-rs/canvas';
import type { Chart, ChartConfiguration } from 'chart.js';
import type { ReportView } from '../view/index.js';
import { buildChartConfig } from './buildChartConfig.js';
import { type AnyChartConfig, type ChartSpec, PIXEL_RATIO } from './chartStyle.js';
import { encodeOpaquePng } from './encodePng.js';
import { BACKGROUND_COLOUR, TEXT_COLOUR } from './palette.js';
import { chartablePostbackKeys } from './shareChart.js';

/** The family name inside the shipped TTF files. */
export const CHART_FONT_FAMILY = 'DejaVu Sans';
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'] as const;

/** Finds `assets/fonts` by walking up from this file: it works from `src/` and from `dist/src/`. */
export function findFontDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'assets', 'fonts');
    if (existsSync(join(candidate, FONT_FILES[0]))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`chart fonts not found: no assets/fonts/${FONT_FILES[0]} above ${start}`);
    dir = parent;
  }
}

/** Skia and Chart.js, loaded on the first render (see `loadDrawing`). */
interface Drawing {
  createCanvas: typeof import('@napi-rs/canvas').createCanvas;
  Chart: typeof Chart;
}

let drawing: Promise<Drawing> | undefined;

/**
 * Loads Skia and Chart.js and registers Chart.js's controllers, our defaults and our fonts, once
 * per process (or worker), on the first render: a process that imports this module but draws
 * nothing (the bot, whose charts are drawn in the chart process) does not pay Skia's and
 * Chart.js's memory (about 25 MiB, docs/benchmarks.md "Footprint"). A failure is not kept: the
 * next render tries again.
 */
function loadDrawing(fontDir: string | undefined): Promise<Drawing> {
  drawing ??= (async () => {
    const [skia, chartJs] = await Promise.all([import('@napi-rs/canvas'), import('chart.js')]);
    const dir = fontDir ?? findFontDir();
    for (const file of FONT_FILES) {
      if (!skia.GlobalFonts.registerFromPath(join(dir, file), CHART_FONT_FAMILY)) {
        throw new Error(`chart font could not be loaded: ${join(dir, file)}`);
      }
    }
    const { Chart, registerables } = chartJs;
    Chart.register(...registerables);
    Chart.defaults.font.family = `'${CHART_FONT_FAMILY}', sans-serif`;
    Chart.defaults.color = TEXT_COLOUR;
    return { createCanvas: skia.createCanvas, Chart };
  })().catch((error: unknown) => {
    drawing = undefined;
    throw error;
  });
  return drawing;
}

/**
 * Paints the background behind each chart, at that chart's size. The PNG encoder relies on it:
 * every pixel is opaque, so the raw pixels need no un-premultiplying.
 */
const WHITE_BACKGROUND = {
  id: 'pivotbot-background',
  beforeDraw(chart: Chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = BACKGROUND_COLOUR;
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

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

/** A canvas of one size and the chart last drawn on it, kept to draw the next chart of that size. */
interface SizeSlot {
  canvas: Canvas;
  chart: Chart | undefined;
}

export interface ChartRendererOptions {
  /** Where the TTF files are; found by walking up from this module by default. */
  fontDir?: string;
}

/**
 * Renders chart specs to PNG buffers at 2× pixel density.
 *
 * @example const png = await new ChartRenderer().render(buildChartConfig(view));
 */
export class ChartRenderer implements ViewChartRenderer {
  readonly #fontDir: string | undefined;
  readonly #slots = new Map<string, SizeSlot>();
  #last: Promise<void> = Promise.resolve();

  constructor(options: ChartRendererOptions = {}) {
    this.#fontDir = options.fontDir;
  }

  async renderView(view: ReportView, kind: ViewChartKind = 'main'): Promise<RenderedChart | null> {
    const spec = viewChartSpec(view, kind);
    return spec ? { data: await this.render(spec), alt: spec.alt } : null;
  }

  /** A PNG of the spec, `spec.width × PIXEL_RATIO` by `spec.height × PIXEL_RATIO` pixels. */
  async render(spec: ChartSpec): Promise<Buffer> {
    return this.renderConfig(spec.config, spec.width, spec.height);
  }

  /**
   * A PNG of any Chart.js configuration at a logical size (benchmarks use it directly). Renders
   * run one after another, each in a turn of the event loop of its own (see #renderNow).
   */
  renderConfig(config: AnyChartConfig, width: number, height: number): Promise<Buffer> {
    const next = this.#last.then(() => this.#renderNow(config, width, height));
    this.#last = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  async #renderNow(config: AnyChartConfig, width: number, height: number): Promise<Buffer> {
    const lib = await loadDrawing(this.#fontDir);
    const slot = this.#slot(lib, width, height);
    // Chart.js writes to the options it is given; hand it a copy.
    const options = { ...config.options, responsive: false, animation: false, devicePixelRatio: PIXEL_RATIO };
    // A chart with plugins of its own neither reuses nor is kept: a chart's plugins cannot be swapped.
    const keep = (config.plugins ?? []).length === 0;
    this.#draw(lib, slot, config, options as ChartConfiguration['options'], { width, height, reuse: keep });
    let png: Buffer;
    try {
      png = encodeOpaquePng(slot.canvas.data(), slot.canvas.width, slot.canvas.height);
    } finally {
      if (!keep) this.#drop(slot);
    }
    // The pixel copy is native memory freed by a finaliser that runs only when the event loop
    // turns; a burst of renders in one turn would hold every copy (3 MB per digest chart).
    await setImmediate();
    return png;
  }

  /**
   * Draws the config on the slot's canvas: by updating the chart kept there (Chart.js rebuilds
   * scales, datasets and layout from the new config and clears the canvas before drawing), or by
   * building a chart. A chart whose update throws is dropped.
   */
  #draw(
    lib: Drawing,
    slot: SizeSlot,
    config: AnyChartConfig,
    options: ChartConfiguration['options'],
    { width, height, reuse }: { width: number; height: number; reuse: boolean },
  ): void {
    const kept = slot.chart;
    if (kept && reuse) {
      try {
        (kept.config as ChartConfiguration).type = config.type;
        kept.data = config.data as Chart['data'];
        kept.options = options as Chart['options'];
        kept.update('none');
        return;
      } catch (error) {
        this.#drop(slot);
        throw error;
      }
    }
    this.#drop(slot);
    // Chart.js reads the logical size from the canvas and scales it by the pixel ratio.
    slot.canvas.width = width;
    slot.canvas.height = height;
    const own = { ...config, options, plugins: [...(config.plugins ?? []), WHITE_BACKGROUND] } as ChartConfiguration;
    slot.chart = new lib.Chart(slot.canvas as unknown as ConstructorParameters<typeof Chart>[0], own);
  }

  /** Destroys the slot's chart, if any; the canvas stays for the next chart of its size. */
  #drop(slot: SizeSlot): void {
    const chart = slot.chart;
    slot.chart = undefined;
    chart?.destroy();
  }

  /** How many canvases exist: one per distinct size rendered so far. */
  get canvasCount(): number {
    return this.#slots.size;
  }

  /** The canvas (and kept chart) for this size. */
  #slot(lib: Drawing, width: number, height: number): SizeSlot {
    const key = `${width}x${height}`;
    let slot = this.#slots.get(key);
    if (!slot) {
      slot = { canvas: lib.createCanvas(width, height), chart: undefined };
      this.#slots.set(key, slot);
    }
    return slot;
  }
}

let shared: ChartRenderer | undefined;

/** The process-wide renderer. */
export function sharedChartRenderer(): ChartRenderer {
  shared ??= new ChartRenderer();
  return shared;
}
