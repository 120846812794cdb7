export type { BotIdentity, ConversationMessage } from './conversationEvents.js';
export { RecentKeys, type SharedKeys } from './dedupe.js';
export {
  type ReceiverSettings,
  type SlackEvent,
  type StartedReceiver,
  startReceiver,
  type ViewAnswer,
  type ViewSubmission,
} from './slackReceiver.js';
export { defaultReceiverEntry, startThreadedReceiver } from './threadedReceiver.js';
