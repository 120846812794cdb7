// Slack's inbound transport: Bolt over HTTP or Socket Mode, acks, the receiver thread, de-duplication keys, and the decoder of Slack's wire text.

export { type BoltLogSink, boltLoggerFor, boltLogSink, receiverLogSinks } from './boltLogger.js';
export type { BotIdentity, ConversationMessage } from './conversationEvents.js';
export {
  type DecodedText,
  type DecodeOptions,
  decodeEntities,
  decodeSlackMessage,
  decodeSlackText,
  type SlackReference,
  wireTextOfBlocks,
} from './decodeSlackText.js';
export { RecentKeys, type SharedKeys } from './dedupe.js';
export type {
  ActionView,
  ReceiverSettings,
  ReceiverSink,
  SlackAction,
  SlackEvent,
  StartedReceiver,
  ViewAnswer,
  ViewSubmission,
} from './slackReceiver.js';
export { defaultReceiverEntry, startThreadedReceiver } from './threadedReceiver.js';
export { type TypedText, typedTextOf } from './typedText.js';

import type { ReceiverSettings, ReceiverSink, StartedReceiver } from './slackReceiver.js';

/**
 * Starts Bolt in this thread (`startReceiver` of `slackReceiver.ts`). Bolt, Express and the Socket
 * Mode client are loaded here, on first use, not when this folder is imported: the bot receives in
 * its receiver thread, which loads them itself, so its main thread never does (about 10 MiB of
 * heap; docs/benchmarks.md, "Footprint").
 */
export async function startReceiver(settings: ReceiverSettings, sink: ReceiverSink): Promise<StartedReceiver> {
  const receiver = await import('./slackReceiver.js');
  return receiver.startReceiver(settings, sink);
}
