/**
 * The chart process's side of its channel with the bot (`chartProcess.ts` runs it on `process`):
 * answers each render request, and ends the process quietly once the bot cannot be reached.
 */
import type { ChartReply, ChartRequest } from './ChartProcessRenderer.js';
import type { ViewChartRenderer } from './ChartRenderer.js';

/** What `serveChartRequests` needs of the process: its IPC channel (the bot). */
export interface ChartChannel {
  send(reply: ChartReply, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (request: ChartRequest) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

export interface ChartProcessServerOptions {
  channel: ChartChannel;
  renderer: ViewChartRenderer;
  /** Ends the process (default in the entry: `process.exit`). */
  exit: (code: number) => void;
  /**
   * The process's output streams (stdout, stderr). stderr is the bot's own (inherited), so when a
   * supervisor's log pipe closes, a write there fails with EPIPE; its `error` event is taken here
   * and does nothing (it writes nothing either, so it cannot loop), since unhandled it would be an
   * uncaught exception that ends the process mid-render.
   */
  streams: readonly NodeJS.EventEmitter[];
}

/**
 * Serves render requests: each is drawn by `renderer` and answered with its PNG, null, or the
 * error's message. The process exits (code 0: nothing failed here) when the bot's end of the
 * channel closes or a reply cannot reach it — the bot is gone, so the process never outlives it
 * and never turns a failed send into an uncaught exception.
 *
 * @example serveChartRequests({ channel: process, renderer: new ChartRenderer(), exit: process.exit, streams: [process.stdout, process.stderr] });
 */
export function serveChartRequests(options: ChartProcessServerOptions): void {
  const { channel, renderer, exit } = options;
  for (const stream of options.streams) stream.on('error', () => undefined);
  const send = (reply: ChartReply) =>
    channel.send(reply, (error) => {
      if (error) exit(0);
    });
  channel.on('message', (request) => {
    renderer.renderView(request.view, request.kind).then(
      (chart) => send({ id: request.id, chart: chart ? { png: chart.data, alt: chart.alt } : null }),
      (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  channel.on('disconnect', () => exit(0));
  // Messages sent before a listener exists are dropped: the bot sends nothing until it hears this.
  send({ ready: true });
}
