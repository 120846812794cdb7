/**
 * Where the bot draws charts: a child process (today) or a worker thread. Skia is safe in worker
 * threads (node-canvas was not), so the choice is memory against crash isolation. Measured here:
 * the memory each adds to the bot, the bot thread's event-loop delay while 50 digest charts are
 * drawn at once, and the time to draw them.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ChartProcessRenderer, defaultChartProcessEntry } from '../../src/render/index.js';
import type { ReportView } from '../../src/reports/index.js';
import { fmt, rssMiB } from '../support/stats.js';

/** Resident memory of another process, in MiB (Linux). */
function processRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? Number.NaN) / 1024;
}

interface Measured {
  extraMiB: number;
  loopP99: number;
  burstMs: number;
}

async function measure(
  renderAll: () => Promise<unknown>,
  extraMiB: () => number,
  warm: () => Promise<unknown>,
): Promise<Measured> {
  await warm();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t = performance.now();
  await renderAll();
  const burstMs = performance.now() - t;
  loop.disable();
  for (let i = 0; i < 3; i++) await renderAll();
  return { extraMiB: extraMiB(), loopP99: loop.percentile(99) / 1e6, burstMs };
}

export async function isolation(view: ReportView, burst = 50): Promise<void> {
  const entry = defaultChartProcessEntry();
  if (!entry) throw new Error('run the compiled bench (npm run bench): the chart process entry is missing');
  const before = rssMiB();

  const processRenderer = new ChartProcessRenderer(entry);
  const inProcess = await measure(
    () => Promise.all(Array.from({ length: burst }, () => processRenderer.renderView(view))),
    () => (processRenderer.pid ? processRssMiB(processRenderer.pid) : Number.NaN),
    () => processRenderer.renderView(view),
  );
  await processRenderer.close();

  const worker = new Worker(new URL('./chartWorker.js', import.meta.url));
  let next = 0;
  const waiting = new Map<number, () => void>();
  worker.on('message', (reply: { id: number }) => {
    waiting.get(reply.id)?.();
    waiting.delete(reply.id);
  });
  const render = () =>
    new Promise<void>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      worker.postMessage({ id, view, kind: 'main' });
    });
  const inWorker = await measure(
    () => Promise.all(Array.from({ length: burst }, render)),
    () => rssMiB() - before,
    render,
  );
  await worker.terminate();

  console.log(`where the bot draws charts (${burst} digest charts at once, after warm-up):`);
  for (const [label, m] of [
    ['child process', inProcess],
    ['worker thread', inWorker],
  ] as const) {
    console.log(
      `  ${label}: +${fmt(m.extraMiB, 0)} MiB resident, bot thread loop delay p99 ${fmt(m.loopP99)} ms, burst ${fmt(m.burstMs, 0)} ms`,
    );
  }
}
