/**
 * bench/render only: the chart process's job in a worker thread instead, to measure the
 * alternative (see isolation.ts). Same renderer, same messages.
 */
import { parentPort } from 'node:worker_threads';
import type { ChartRequest } from '../../src/render/ChartProcessRenderer.js';
import { ChartRenderer } from '../../src/render/index.js';

const port = parentPort;
if (!port) throw new Error('chartWorker.js runs as a worker thread');
const renderer = new ChartRenderer();
port.on('message', (request: ChartRequest) => {
  renderer.renderView(request.view, request.kind).then(
    (chart) => port.postMessage({ id: request.id, png: chart?.data ?? null, alt: chart?.alt }),
    (error: unknown) => port.postMessage({ id: request.id, error: String(error) }),
  );
});
