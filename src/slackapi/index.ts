// Slack's Web API: the SlackGateway interface and its WebClient implementation, rate-limit pacing, channel names, history matching, Slack errors.

export { isTopLevel } from './historyMessages.js';
export {
  ALERT_EVENT,
  ANSWER_EVENT,
  alertMetadata,
  answerMetadata,
  DIGEST_EVENT,
  DIGEST_EXPLANATION_EVENT,
  type PivotbotEventType,
} from './metadataEvents.js';
export { paceLowerBoundMs, type RateLimitSettings } from './rateLimits.js';
export {
  type CallOptions,
  type ChannelInfo,
  type HistoryMessage,
  type MessageMetadata,
  type Posted,
  SlackDeliveryError,
  type SlackGateway,
  unreachableChannel,
} from './SlackGateway.js';
export { slackApiUrlOption } from './slackApiUrl.js';
export { type GatewayOptions, SLACK_RETRY, slackGatewayFor } from './slackGatewayFor.js';
export { verifySlackToken } from './slackIdentity.js';
export type { WebApiGateway } from './WebApiGateway.js';
export { type LogSink, pinoLogSink, webClientLogger, webClientLoggerFor } from './webClientLogger.js';
