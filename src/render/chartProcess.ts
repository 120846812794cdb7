/**
 * Entry of the chart process (forked by `ChartProcessRenderer`): renders each view it is sent
 * with its own `ChartRenderer` and sends the PNG back (`serveChartRequests`). It exits when the
 * bot's end of the channel closes, so it never outlives the bot, and a broken stdout or stderr
 * (the bot's log pipe, inherited, closed by its supervisor) neither ends nor spins it.
 */

import { ChartRenderer } from './ChartRenderer.js';
import { type ChartChannel, serveChartRequests } from './chartProcessServer.js';

if (!process.send) throw new Error('chartProcess.js runs as a child process of the bot (ChartProcessRenderer)');

serveChartRequests({
  channel: process as unknown as ChartChannel,
  renderer: new ChartRenderer(),
  exit: (code) => process.exit(code),
  streams: [process.stdout, process.stderr],
});
