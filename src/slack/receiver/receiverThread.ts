/**
 * Entry of the receiver thread (started by `startThreadedReceiver`): runs `startReceiver` with the
 * settings in `workerData` and talks to the bot's thread over `parentPort`. See
 * `threadedReceiver.ts` for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fromWireError, toWireError } from '../../core/index.js';
import { SUBMIT_ANSWER_MS } from './boltListeners.js';
import { type ReceiverSettings, startReceiver } from './slackReceiver.js';
import type { FromReceiver, ToReceiver } from './threadedReceiver.js';

const port = parentPort;
if (!port) throw new Error('receiverThread.js runs as a worker thread of the bot (startThreadedReceiver)');

const send = (message: FromReceiver) => port.postMessage(message);
/** Health checks waiting for the bot's thread, by id. */
const pendingHealth = new Map<number, (body: Record<string, unknown>) => void>();
let nextHealthId = 0;
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
