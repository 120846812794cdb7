/**
 * Entry of the receiver thread (started by `startThreadedReceiver`): runs `startReceiver` with the
 * settings in `workerData` and talks to the bot's thread over `parentPort`. See
 * `threadedReceiver.ts` for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fromWireError, toWireError } from '../../core/index.js';
import type { AckKind } from './ackTimes.js';
import { SUBMIT_ANSWER_MS } from './boltListeners.js';
import { type ReceiverSettings, startReceiver } from './slackReceiver.js';
import type { FromReceiver, ToReceiver } from './threadedReceiver.js';

const port = parentPort;
if (!port) throw new Error('receiverThread.js runs as a worker thread of the bot (startThreadedReceiver)');

const send = (message: FromReceiver) => port.postMessage(message);
/** Health checks waiting for the bot's thread, by id. */
const pendingHealth = new Map<number, (body: Record<string, unknown>) => void>();
let nextHealthId = 0;
/** `GET /metrics` requests waiting for the bot's thread, by id. */
const pendingMetrics = new Map<number, (exposition: { contentType: string; text: string }) => void>();
let nextMetricsId = 0;
/** Acks timed here and not yet sent to the bot's thread: sent in batches, and before each scrape. */
let acks: Array<[AckKind, number]> = [];
const ACK_BATCH = 256;
const sendAcks = () => {
  if (acks.length === 0) return;
  send({ type: 'acks', acks });
  acks = [];
};
/** Modal submissions waiting for the bot thread's verdict, by id (the receiver times them out). */
const pendingSubmits = new Map<number, (outcome: Extract<ToReceiver, { type: 'submitted' }>) => void>();
let nextSubmitId = 0;

process.on('unhandledRejection', (reason) => {
  send({ type: 'error', what: 'receiver thread: unhandled rejection', error: toWireError(reason) });
});

try {
  const receiver = await startReceiver(workerData as ReceiverSettings, {
    event: (event) => send({ type: 'event', event }),
    log: (level, text) => send({ type: 'log', level, text }),
    error: (what, error) => send({ type: 'error', what, error: toWireError(error) }),
    submit: (submission) =>
      new Promise((resolve, reject) => {
        const id = ++nextSubmitId;
        const timer = setTimeout(() => {
          pendingSubmits.delete(id);
          reject(new Error(`the bot did not answer a modal submission within ${SUBMIT_ANSWER_MS} ms`));
        }, SUBMIT_ANSWER_MS);
        pendingSubmits.set(id, (outcome) => {
          clearTimeout(timer);
          if ('error' in outcome) reject(fromWireError(outcome.error));
          else resolve(outcome.answer);
        });
        send({ type: 'submit', id, submission });
      }),
    ack: (kind, seconds) => {
      acks.push([kind, seconds]);
      if (acks.length >= ACK_BATCH) sendAcks();
    },
    metrics: () =>
      new Promise((resolve, reject) => {
        sendAcks();
        const id = ++nextMetricsId;
        const timer = setTimeout(() => {
          pendingMetrics.delete(id);
          reject(new Error('the bot did not answer within 2 s'));
        }, 2_000);
        pendingMetrics.set(id, (exposition) => {
          clearTimeout(timer);
          resolve(exposition);
        });
        send({ type: 'metrics', id });
      }),
    health: () =>
      new Promise((resolve, reject) => {
        const id = ++nextHealthId;
        const timer = setTimeout(() => {
          pendingHealth.delete(id);
          reject(new Error('the bot did not answer within 2 s'));
        }, 2_000);
        pendingHealth.set(id, (body) => {
          clearTimeout(timer);
          resolve(body);
        });
        send({ type: 'health', id });
      }),
  });
  port.on('message', (message: ToReceiver) => {
    if (message.type === 'health') {
      pendingHealth.get(message.id)?.(message.body);
      pendingHealth.delete(message.id);
    } else if (message.type === 'metrics') {
      pendingMetrics.get(message.id)?.(message);
      pendingMetrics.delete(message.id);
    } else if (message.type === 'submitted') {
      pendingSubmits.get(message.id)?.(message);
      pendingSubmits.delete(message.id);
    } else if (message.type === 'stop') {
      void receiver.stop().finally(() => {
        send({ type: 'stopped' });
        port.close();
      });
    }
  });
  send({ type: 'ready', port: receiver.port });
} catch (error) {
  send({ type: 'failed', error: toWireError(error) });
  port.close();
}
