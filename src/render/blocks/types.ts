/**
 * The slice of Slack's Block Kit that pivotbot's messages use, typed here so the builders stay
 * free of SDK dependencies. Shapes follow https://docs.slack.dev/reference/block-kit/blocks.
 */

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
}

export type TextObject = PlainText | MrkdwnText;

export interface HeaderBlock {
  type: 'header';
  text: PlainText;
  block_id?: string;
}

export interface SectionBlock {
  type: 'section';
  text?: TextObject;
  fields?: TextObject[];
  block_id?: string;
}

export interface DividerBlock {
  type: 'divider';
  block_id?: string;
}

export interface ImageElement {
  type: 'image';
  image_url: string;
  alt_text: string;
}

export interface ContextBlock {
  type: 'context';
  elements: Array<TextObject | ImageElement>;
  block_id?: string;
}

/** An image block: a public URL, or a file uploaded to Slack (files.uploadV2) by id or URL. */
export interface ImageBlock {
  type: 'image';
  alt_text: string;
  title?: PlainText;
  image_url?: string;
  slack_file?: { id: string } | { url: string };
  block_id?: string;
}

export interface ButtonElement {
  type: 'button';
  text: PlainText;
  action_id: string;
  value?: string;
  url?: string;
  style?: 'primary' | 'danger';
}

export interface ActionsBlock {
  type: 'actions';
  elements: ButtonElement[];
  block_id?: string;
}

export interface TableCell {
  type: 'raw_text';
  text: string;
}

export interface TableBlock {
  type: 'table';
  rows: TableCell[][];
  column_settings?: Array<{ align?: 'left' | 'center' | 'right'; is_wrapped?: boolean } | null>;
  block_id?: string;
}

export type Block = HeaderBlock | SectionBlock | DividerBlock | ContextBlock | ImageBlock | ActionsBlock | TableBlock;

/** A message ready for chat.postMessage / respond: the blocks and the notification text. */
export interface SlackMessage {
  /** Fallback text for notifications and clients without Block Kit. */
  text: string;
  blocks: Block[];
}

/**
 * A chart image for a message: a URL (a public one for Slack, a relative file path for the HTML
 * preview) or a file already uploaded to Slack.
 */
export type ChartImage = { alt: string; title?: string } & ({ url: string } | { slackFileId: string });
