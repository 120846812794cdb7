/**
 * The chart process's side of its channel (`serveChartRequests`), over a fake channel: replies,
 * a bot that cannot be reached (the process exits, 0, instead of an uncaught exception), and a
 * broken stdout/stderr (EPIPE on the bot's closed log pipe), whose error is taken.
 */
import { EventEmitter } from 'node:events';
import type { ChartReply, ChartRequest } from '../../../src/render/ChartProcessRenderer.js';
import {
  type ChartChannel,
  type RenderedChart,
  serveChartRequests,
  type ViewChartRenderer,
} from '../../../src/render/index.js';
import type { ReportView } from '../../../src/view/index.js';
import { timeSeriesView } from '../../support/renderFixtures.js';

/** A channel whose sends are recorded, and fail with `failWith` when set. */
class FakeChannel extends EventEmitter implements ChartChannel {
  readonly replies: ChartReply[] = [];
  failWith: Error | undefined;
  #sent: Array<() => void> = [];

  send(reply: ChartReply, callback: (error: Error | null) => void): boolean {
    const error = this.failWith ?? null;
    if (!error) this.replies.push(reply);
    queueMicrotask(() => callback(error));
    for (const waiter of this.#sent.splice(0)) waiter();
    return error === null;
  }

  /** Resolves on the next send. */
  nextSend(): Promise<void> {
    return new Promise((resolve) => this.#sent.push(resolve));
  }
}

const PNG = Buffer.from('png');
const renderer: ViewChartRenderer = {
  async renderView(view: ReportView): Promise<RenderedChart | null> {
    if (view.reportId === 'broken') throw new Error('no canvas');
    return view.reportId === 'none' ? null : { data: PNG, alt: `chart of ${view.reportId}` };
  },
};

function serve() {
  const channel = new FakeChannel();
  const exits: number[] = [];
  const stdout = new EventEmitter();
  const stderr = new EventEmitter();
  serveChartRequests({ channel, renderer, exit: (code) => exits.push(code), streams: [stdout, stderr] });
  return { channel, exits, stdout, stderr };
}

const request = (id: number, reportId: string): ChartRequest => ({
  id,
  view: { ...timeSeriesView(), reportId },
  kind: 'main',
});

describe('serveChartRequests', () => {
  it('says it is ready, then answers each request with its chart, null, or the error', async () => {
    const { channel, exits } = serve();
    expect(channel.replies).toEqual([{ ready: true }]);
    for (const [id, reportId] of [
      [1, 'spend'],
      [2, 'none'],
      [3, 'broken'],
    ] as const) {
      const sent = channel.nextSend();
      channel.emit('message', request(id, reportId));
      await sent;
    }
    expect(channel.replies.slice(1)).toEqual([
      { id: 1, chart: { png: PNG, alt: 'chart of spend' } },
      { id: 2, chart: null },
      { id: 3, error: 'no canvas' },
    ]);
    expect(exits).toEqual([]);
  });

  it('exits with 0 when the bot closes the channel', () => {
    const { channel, exits } = serve();
    channel.emit('disconnect');
    expect(exits).toEqual([0]);
  });

  it('exits with 0 when a reply cannot reach the bot (EPIPE on the channel), raising nothing', async () => {
    const { channel, exits } = serve();
    channel.failWith = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const sent = channel.nextSend();
    channel.emit('message', request(1, 'spend'));
    await sent;
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(exits).toEqual([0]);
  });

  it('takes a broken stdout or stderr (EPIPE: the log pipe it shares with the bot closed) and goes on serving', async () => {
    const { channel, exits, stdout, stderr } = serve();
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    // Unhandled, an `error` event throws (and in the process becomes an uncaught exception).
    expect(() => stderr.emit('error', epipe)).not.toThrow();
    expect(() => stdout.emit('error', epipe)).not.toThrow();
    const sent = channel.nextSend();
    channel.emit('message', request(7, 'spend'));
    await sent;
    expect(channel.replies.at(-1)).toEqual({ id: 7, chart: { png: PNG, alt: 'chart of spend' } });
    expect(exits).toEqual([]);
  });
});
