// Slack's inbound transport: Bolt over HTTP or Socket Mode, acks, the receiver thread, de-duplication keys.

export type { BotIdentity, ConversationMessage } from './conversationEvents.js';
export { RecentKeys, type SharedKeys } from './dedupe.js';
export {
  type ActionView,
  type ReceiverSettings,
  type SlackAction,
  type SlackEvent,
  type StartedReceiver,
  startReceiver,
  type ViewAnswer,
  type ViewSubmission,
} from './slackReceiver.js';
export { defaultReceiverEntry, startThreadedReceiver } from './threadedReceiver.js';
