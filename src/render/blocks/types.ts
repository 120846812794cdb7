/**
 * Block Kit as pivotbot's builders speak it: Slack's own types from `@slack/types` (what
 * `@slack/web-api` takes), under the names the builders use. A message's blocks are `KnownBlock[]`,
 * so they go to `chat.postMessage` as they are. Shapes: https://docs.slack.dev/reference/block-kit/blocks.
 */
import type {
  ActionsBlock,
  Button,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  HomeView,
  ImageBlock,
  ImageElement,
  KnownBlock,
  ModalView,
  MrkdwnElement,
  PlainTextElement,
  RawTextElement,
  SectionBlock,
  TableBlock,
  TextObject,
} from '@slack/types';

export type {
  ActionsBlock,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  HomeView,
  ImageBlock,
  ImageElement,
  KnownBlock,
  ModalView,
  SectionBlock,
  TableBlock,
  TextObject,
};

/** Any block a message, the App Home or a modal may hold. */
export type Block = KnownBlock;
export type PlainText = PlainTextElement;
export type MrkdwnText = MrkdwnElement;
export type ButtonElement = Button;
/** The one kind of table cell pivotbot writes: plain text. */
export type TableCell = RawTextElement;

/** A message ready for chat.postMessage / respond: the blocks and the notification text. */
export interface SlackMessage {
  /** Fallback text for notifications and clients without Block Kit. */
  text: string;
  blocks: KnownBlock[];
}

/**
 * A chart image for a message: a URL (a public one for Slack, a relative file path for the HTML
 * preview) or a file already uploaded to Slack.
 */
export type ChartImage = { alt: string; title?: string } & ({ url: string } | { slackFileId: string });
