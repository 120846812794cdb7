/**
 * Posting a message whose image block shows a file just uploaded (a digest's or an alert's chart).
 * Slack processes uploads in the background and refuses an image it has not finished with
 * (`invalid_blocks`, "invalid slack file"; slackapi/python-slack-sdk#1521, #1658): waiting a second
 * and posting again works. After the waits, the message goes out without the image, and the
 * caller says so or puts the chart elsewhere.
 */
import type { SlackMessage } from '../render/index.js';
import type { CallOptions, MessageMetadata, Posted, SlackGateway } from '../slackapi/index.js';
import { SlackDeliveryError } from '../slackapi/index.js';

/** Slack's answers to an image block it will not show (yet). */
export const IMAGE_ERRORS = new Set(['invalid_blocks', 'invalid_blocks_format', 'invalid_arguments', 'file_not_found']);

/** The waits before posting the image again: about three seconds in all. */
export const IMAGE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000];

export interface ImagePost {
  posted: Posted;
  /** False when the message went out without its image. */
  imageShown: boolean;
  /** Slack's last refusal of the image, when it was left out. */
  refused?: SlackDeliveryError;
}

/**
 * Posts `withImage`; while Slack refuses its image, waits and tries again, then posts
 * `withoutImage`. Any other error is thrown as it is.
 *
 * @example const { posted, imageShown } = await postWithImage(slack, 'C123', { withImage, withoutImage }, {})
 */
export async function postWithImage(
  slack: Pick<SlackGateway, 'post'>,
  channel: string,
  message: { withImage: SlackMessage; withoutImage: SlackMessage },
  options: CallOptions & { threadTs?: string; metadata?: MessageMetadata },
  delaysMs: readonly number[] = IMAGE_RETRY_DELAYS_MS,
): Promise<ImagePost> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { posted: await slack.post(channel, message.withImage, options), imageShown: true };
    } catch (error) {
      if (!(error instanceof SlackDeliveryError) || !IMAGE_ERRORS.has(error.slackError)) throw error;
      const delay = delaysMs[attempt];
      if (delay === undefined) {
        return { posted: await slack.post(channel, message.withoutImage, options), imageShown: false, refused: error };
      }
      await sleep(delay, options.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
