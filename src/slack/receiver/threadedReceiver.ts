/**
 * Runs the Slack receiver (`slackReceiver.ts`) in a worker thread, so acknowledging Slack never
 * waits behind the bot's own work: a report drawing its chart or parsing a 17k-row CSV blocks the
 * bot's thread for tens of milliseconds, and 50 commands arriving at once would queue behind it.
 * The thread verifies, acknowledges and posts each event here; a thread that dies is restarted on
 * the same port.
 */
import { Worker } from 'node:worker_threads';
import { compiledSibling, fromWireError, type Logger, toError, toWireError, type WireError } from '../../core/index.js';
import type { AckKind } from './ackTimes.js';
import type { BoltLogSink } from './boltLogger.js';
import type {
  ReceiverSettings,
  ReceiverSink,
  SlackEvent,
  StartedReceiver,
  ViewAnswer,
  ViewSubmission,
} from './slackReceiver.js';

/**
 * Messages from the receiver thread. Errors cross whole (`WireError`: class, message, code,
 * details, stack, cause chain), never flattened to their message.
 */
export type FromReceiver =
  | { type: 'ready'; port: number | undefined }
  | { type: 'failed'; error: WireError }
  | { type: 'event'; event: SlackEvent }
  | { type: 'log'; level: Parameters<BoltLogSink>[0]; text: string }
  /** An error the thread caught (a listener's, a submission's, an unhandled rejection). */
  | { type: 'error'; what: string; error: WireError }
  | { type: 'health'; id: number }
  /** Acknowledgements timed since the last batch: [kind, seconds] (sent before each `metrics`). */
  | { type: 'acks'; acks: Array<[AckKind, number]> }
  /** `GET /metrics` waiting for the bot's exposition (`metrics` with the same id). */
  | { type: 'metrics'; id: number }
  /** A modal submission waiting for its verdict (`submitted` with the same id). */
  | { type: 'submit'; id: number; submission: ViewSubmission }
  | { type: 'stopped' };

/** Messages to the receiver thread. */
export type ToReceiver =
  | { type: 'health'; id: number; body: Record<string, unknown> }
  | { type: 'metrics'; id: number; contentType: string; text: string }
  | { type: 'submitted'; id: number; answer: ViewAnswer }
  /** The bot could not check a submission: the thread answers it as busy and logs this error. */
  | { type: 'submitted'; id: number; error: WireError }
  | { type: 'stop' };

const RESTART_DELAY_MS = 1_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * The compiled thread entry next to this module, or undefined when running from the TypeScript
 * sources (under jest), where a worker cannot load it; the app then receives in its own thread.
 */
export function defaultReceiverEntry(): URL | undefined {
  return compiledSibling('./receiverThread.js', import.meta.url);
}

/**
 * Starts the receiver in a worker thread running `entry` (`receiverThread.js`); resolves once it
 * listens, rejects when it cannot start (a port in use, a refused app token).
 *
 * @example const receiver = await startThreadedReceiver(defaultReceiverEntry(), settings, sink, logger);
 */
export async function startThreadedReceiver(
  entry: URL,
  settings: ReceiverSettings,
  sink: ReceiverSink,
  logger: Logger,
): Promise<StartedReceiver> {
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  const scheduleRestart = () => {
    restartTimer = setTimeout(() => {
      if (stopping) return;
      // Back on the port Slack sends to, also when the first one was chosen by the OS.
      spawnThread(current.port ?? settings.port).then(
        (next) => {
          if (stopping) {
            void next.worker.terminate();
            return;
          }
          current = next;
          logger.info({ port: next.port }, 'the Slack receiver thread is listening again');
        },
        (error: unknown) => {
          logger.error({ err: toError(error) }, 'restarting the Slack receiver thread failed; trying again');
          scheduleRestart();
        },
      );
    }, RESTART_DELAY_MS);
  };

  const spawnThread = (port: number) =>
    new Promise<{ worker: Worker; port: number | undefined }>((resolve, reject) => {
      const worker = new Worker(entry, { workerData: { ...settings, port }, name: 'pivotbot-slack-receiver' });
      let ready = false;
      worker.on('message', (message: FromReceiver) => {
        switch (message.type) {
          case 'ready':
            ready = true;
            resolve({ worker, port: message.port });
            break;
          case 'failed':
            reject(fromWireError(message.error));
            break;
          case 'error':
            sink.error(message.what, fromWireError(message.error));
            break;
          case 'event':
            sink.event(message.event);
            break;
          case 'log':
            sink.log(message.level, message.text);
            break;
          case 'health':
            // A bot that cannot answer leaves the thread's 2 s timeout to report it (503).
            void sink.health().then(
              (body) => worker.postMessage({ type: 'health', id: message.id, body } satisfies ToReceiver),
              () => undefined,
            );
            break;
          case 'acks':
            for (const [kind, seconds] of message.acks) sink.ack?.(kind, seconds);
            break;
          case 'metrics':
            // As for health: no answer leaves the thread's timeout to report it (503).
            void sink.metrics?.().then(
              ({ contentType, text }) =>
                worker.postMessage({ type: 'metrics', id: message.id, contentType, text } satisfies ToReceiver),
              () => undefined,
            );
            break;
          case 'submit':
            void sink.submit(message.submission).then(
              (answer) => worker.postMessage({ type: 'submitted', id: message.id, answer } satisfies ToReceiver),
              (error: unknown) =>
                worker.postMessage({
                  type: 'submitted',
                  id: message.id,
                  error: toWireError(error),
                } satisfies ToReceiver),
            );
            break;
          case 'stopped':
            break;
        }
      });
      worker.on('error', (error) => {
        logger.error({ err: toError(error) }, 'the Slack receiver thread failed');
        if (!ready) reject(error);
      });
      worker.once('exit', (code) => {
        if (!ready) {
          reject(new Error(`the Slack receiver thread exited (code ${code}) before listening`));
          return;
        }
        if (!stopping) {
          logger.error({ code }, 'the Slack receiver thread stopped; restarting it');
          scheduleRestart();
        }
      });
    });

  let current = await spawnThread(settings.port);

  return {
    port: current.port,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const { worker } = current;
      const done = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
        const finish = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.on('message', (message: FromReceiver) => message.type === 'stopped' && finish());
        worker.once('exit', finish);
      });
      worker.postMessage({ type: 'stop' } satisfies ToReceiver);
      await done;
      await worker.terminate();
    },
  };
}
