/**
 * Entry of the chart process (forked by `ChartProcessRenderer`): renders each view it is sent
 * with its own `ChartRenderer` and sends the PNG back. It exits when the bot's end of the channel
 * closes, so it never outlives the bot.
 */

import type { ChartReply, ChartRequest } from './ChartProcessRenderer.js';
import { ChartRenderer } from './ChartRenderer.js';

if (!process.send) throw new Error('chartProcess.js runs as a child process of the bot (ChartProcessRenderer)');
const send = (reply: ChartReply) => process.send?.(reply);

const renderer = new ChartRenderer();
process.on('message', (request: ChartRequest) => {
  renderer.renderView(request.view, request.kind).then(
    (chart) => send({ id: request.id, chart: chart ? { png: chart.data, alt: chart.alt } : null }),
    (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
// Messages sent before a listener exists are dropped: the bot sends nothing until it hears this.
process.send({ ready: true } satisfies ChartReply);
