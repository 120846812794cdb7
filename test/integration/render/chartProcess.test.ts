/**
 * Charts drawn in a child process (`ChartProcessRenderer` running the compiled `chartProcess.js`,
 * built by `npm test` before jest): the same PNGs as in this process, and a process that dies or
 * hangs fails only its own renders and is replaced.
 */

import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { ChartReply } from '../../../src/render/ChartProcessRenderer.js';
import {
  CHART_PROCESS_EXEC_ARGV,
  CHART_PROCESS_MALLOC_ENV,
  ChartProcessRenderer,
  ChartRenderer,
} from '../../../src/render/index.js';
import type { ReportView } from '../../../src/view/index.js';
import { eventually } from '../../support/eventually.js';
import { shareView, stackedView, timeSeriesView, topNView } from '../../support/renderFixtures.js';

/** The share of pixels whose colour differs by more than a few shades (1 for different sizes). */
async function differingPixelShare(a: Buffer, b: Buffer): Promise<number> {
  const [one, two] = await Promise.all([pixels(a), pixels(b)]);
  if (one.width !== two.width || one.height !== two.height) return 1;
  let differing = 0;
  for (let i = 0; i < one.data.length; i += 4) {
    const delta = Math.max(
      Math.abs((one.data[i] as number) - (two.data[i] as number)),
      Math.abs((one.data[i + 1] as number) - (two.data[i + 1] as number)),
      Math.abs((one.data[i + 2] as number) - (two.data[i + 2] as number)),
    );
    if (delta > 8) differing++;
  }
  return differing / (one.width * one.height);
}

async function pixels(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: context.getImageData(0, 0, image.width, image.height).data };
}

const ENTRY = new URL('../../../dist/src/render/chartProcess.js', import.meta.url);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(() => {
  if (!existsSync(fileURLToPath(ENTRY))) throw new Error(`${fileURLToPath(ENTRY)} is missing: run npm run build first`);
});

describe('ChartProcessRenderer', () => {
  const forked = new ChartProcessRenderer(ENTRY);
  const inProcess = new ChartRenderer();
  afterAll(async () => {
    await forked.close();
  });

  it('draws the same picture as the renderer in this process', async () => {
    for (const [view, kind] of [
      [timeSeriesView(), 'main'],
      [stackedView(), 'main'],
      [topNView(), 'main'],
      [shareView(), 'share'],
    ] as const) {
      const there = await forked.renderView(view, kind);
      const here = await inProcess.renderView(view, kind);
      expect(there?.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(there?.alt).toBe(here?.alt);
      // Anti-aliasing may differ by a shade on a few edge pixels; the picture may not.
      expect(await differingPixelShare(there?.data as Buffer, here?.data as Buffer)).toBeLessThan(0.005);
    }
  });

  it('answers null for a view without a chart', async () => {
    const { chart: _chart, ...noChart } = timeSeriesView();
    expect(await forked.renderView(noChart as ReportView)).toBeNull();
  });

  it('answers "no chart" without starting or asking a process when the view cannot have one', async () => {
    const idle = new ChartProcessRenderer(ENTRY);
    const { chart: _chart, ...noChart } = timeSeriesView();
    expect(await idle.renderView(noChart as ReportView)).toBeNull();
    // No postbacks: no share chart, however many rows the view has.
    expect(await idle.renderView(timeSeriesView(), 'share')).toBeNull();
    expect(idle.processesStarted).toBe(0);
    await idle.close();
  });

  it('keeps 20 renders at once apart: each gets its own chart', async () => {
    const views = Array.from({ length: 20 }, (_, i) => timeSeriesView(5 + (i % 5)));
    const charts = await Promise.all(views.map((v) => forked.renderView(v)));
    const expected = await Promise.all(views.map((v) => inProcess.renderView(v)));
    charts.forEach((chart, i) => {
      expect(chart?.data.equals(expected[i]?.data as Buffer)).toBe(true);
    });
    expect(forked.pending).toBe(0);
  });

  it('runs the process with its V8 flags and malloc settings (Linux: read from /proc)', async () => {
    expect(await forked.renderView(timeSeriesView())).not.toBeNull();
    const pid = forked.pid as number;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    for (const flag of CHART_PROCESS_EXEC_ARGV) expect(argv).toContain(flag);
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(CHART_PROCESS_MALLOC_ENV)) expect(env).toContain(`${name}=${value}`);
  });

  it('leaves Skia and Chart.js unloaded in a process that imports the renderer but draws nothing', () => {
    // The bot imports src/render (messages, tables, CSV) and draws in the chart process.
    const script = `await import(${JSON.stringify(new URL('../../../dist/src/render/index.js', import.meta.url).href)});
      const { readFileSync } = await import('node:fs');
      process.stdout.write(readFileSync('/proc/self/maps', 'utf8').includes('skia') ? 'skia' : 'none');`;
    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(loaded).toBe('none');
  });

  it('refuses renders once closed', async () => {
    const closing = new ChartProcessRenderer(ENTRY);
    expect(await closing.renderView(timeSeriesView())).not.toBeNull();
    await closing.close();
    await expect(closing.renderView(timeSeriesView())).rejects.toThrow('closed');
  });
});

describe('a chart process that dies or hangs', () => {
  let dir = '';
  let faulty: ChartProcessRenderer;
  const view = (reportId: string): ReportView => ({ ...timeSeriesView(), reportId });
  /** The renders' timeouts, in the order they were armed: the test fires one when it decides (no clock races a busy machine). */
  const timers: Array<{ fire: () => void; ms: number; cancelled: boolean }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-charts-'));
    // The real entry, then a listener that exits or spins forever on two report ids (it runs
    // right after the real one has started drawing; spinning, it leaves a file saying so).
    const entry = join(dir, 'faultyChartProcess.mjs');
    await writeFile(
      entry,
      `import { writeFileSync } from 'node:fs';
       await import(${JSON.stringify(ENTRY.href)});
       process.on('message', (m) => {
         if (m.view?.reportId === '__crash__') process.exit(3);
         if (m.view?.reportId === '__hang__') {
           writeFileSync(${JSON.stringify(join(dir, 'hanging'))}, '');
           for (;;) {}
         }
       });`,
    );
    faulty = new ChartProcessRenderer(pathToFileURL(entry), {
      timeoutMs: 1_000,
      setTimer: (fire, ms) => {
        const timer = { fire, ms, cancelled: false };
        timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
    });
  });
  afterAll(async () => {
    await faulty.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails the renders of a process that exits, and draws the next one in a new process', async () => {
    const crashed = faulty.renderView(view('__crash__'));
    await expect(crashed).rejects.toThrow('exited (code 3)');
    const started = faulty.processesStarted;
    const next = await faulty.renderView(view('after-crash'));
    expect(faulty.processesStarted).toBe(started + 1);
    expect(next?.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it('times out a render that hangs, replaces the process, and fails what was queued behind it', async () => {
    const armed = timers.length;
    const hung = faulty.renderView(view('__hang__'));
    const queued = faulty.renderView(view('queued'));
    // The process is stuck on the hung render: then its timeout is spent.
    await eventually('the chart process spinning on the hung render', () => existsSync(join(dir, 'hanging')));
    const timeout = timers[armed];
    expect(timeout).toMatchObject({ ms: 1_000, cancelled: false });
    timeout?.fire();
    await expect(hung).rejects.toThrow('did not answer within 1000 ms');
    await expect(queued).rejects.toThrow('replaced');
    const next = await faulty.renderView(view('after-hang'));
    expect(next?.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    // A render answered (or failed otherwise) cancels its timeout; only the one fired was spent.
    expect(timers.filter((t) => !t.cancelled)).toEqual([timeout]);
  });
});

describe('a chart process whose stderr pipe is closed', () => {
  let dir = '';
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-charts-stderr-'));
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * stderr is the bot's own, inherited: when the supervisor's log pipe closes, a line written
   * there (a library's warning; here a listener after the real one's) fails with EPIPE. The
   * process goes on drawing, and still exits (0) when the bot's end of the channel closes.
   */
  it('goes on drawing when a write to stderr fails with EPIPE, and exits when the bot disconnects', async () => {
    const failures = join(dir, 'stderr-failures');
    const entry = join(dir, 'noisyChartProcess.mjs');
    await writeFile(
      entry,
      `import { appendFileSync } from 'node:fs';
       await import(${JSON.stringify(ENTRY.href)});
       process.on('message', (m) => {
         process.stderr.write('a warning for render ' + m.id + '\\n', (error) => {
           if (error) appendFileSync(${JSON.stringify(failures)}, error.code + '\\n');
         });
       });`,
    );
    const started = fork(entry, [], {
      serialization: 'advanced',
      execArgv: [...CHART_PROCESS_EXEC_ARGV],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child = started;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      started.once('exit', (code, signal) => resolve({ code, signal })),
    );
    /** The next reply, or how the process ended before sending one. */
    const next = () =>
      Promise.race([
        new Promise<ChartReply>((resolve) => started.once('message', resolve)),
        exited.then((how) => ({ exited: how })),
      ]);

    expect(await next()).toEqual({ ready: true });
    // The reading end goes away: every later write to the process's stderr fails.
    started.stderr?.destroy();
    for (const id of [1, 2, 3]) {
      started.send({ id, view: timeSeriesView(5 + id), kind: 'main' });
      const reply = await next();
      expect(reply).toMatchObject({ id, chart: { alt: expect.any(String) } });
    }
    expect(readFileSync(failures, 'utf8').trim().split('\n')).toEqual(['EPIPE', 'EPIPE', 'EPIPE']);

    started.disconnect();
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
