/**
 * How `/pivot` answers the asker: the command's context (who, where, which thread), private
 * answers (response_url, ephemeral, or a reply in a conversation), "queued" notes, and failures
 * turned into a message written for them.
 */
import { describeFailure, type UserFailure } from '../../core/index.js';
import type { DeliveryDeps } from '../../delivery/index.js';
import { formatQueryError, QueryError } from '../../query/index.js';
import { type Block, errorMessage, escapeMrkdwn, type SlackMessage } from '../../render/index.js';
import type { LoadedReports } from '../../reports/index.js';
import { SlackDeliveryError } from '../../slackapi/index.js';
import { noticeMessage } from './screens/infoMessages.js';
import type { WorkQueue } from './WorkQueue.js';

/** Who asked, where, and how to answer them privately. */
export interface CommandContext {
  userId: string;
  channelId: string;
  /**
   * The command's response_url: private answers go there (it works outside channels the bot is
   * in). A modal submission has none: its private answers are ephemeral messages in the channel.
   */
  responseUrl?: string;
  /** Slack's trigger_id: the idempotency key of the run this command starts. */
  triggerId?: string;
  /** The run's idempotency key when there is no trigger id (a message: its channel and ts). */
  runKey?: string;
  /** Answers go into this thread (a follow-up, a mention). */
  threadTs?: string;
  /**
   * A message rather than a command: what `/pivot` tells privately (help, errors, suggestions) is
   * a reply where the message was asked, since there is no response_url.
   */
  inConversation?: boolean;
}

export interface PivotCommandsDeps extends DeliveryDeps {
  /** Limits how many runs (query, render, upload) work at once; light commands never wait for it. */
  runs: WorkQueue;
  /** The report definitions, read fresh for each command so edits apply without a restart. */
  loadReports: () => Promise<LoadedReports>;
  settings: { admins: readonly string[]; timezone: string; sandbox: boolean };
}

/** Private answers to the asker, by the way they asked. */
export class Answers {
  constructor(private readonly deps: PivotCommandsDeps) {}

  /** Tells the asker something where they asked: privately, or a reply when in a conversation. */
  async tell(ctx: CommandContext, message: SlackMessage): Promise<void> {
    if (ctx.inConversation) {
      await this.deps.slack.post(ctx.channelId, message, ctx.threadTs ? { threadTs: ctx.threadTs } : {});
      return;
    }
    if (ctx.responseUrl) await this.deps.slack.respond(ctx.responseUrl, message);
    else await this.deps.slack.ephemeral(ctx.channelId, ctx.userId, message);
  }

  /** A run waits for a slot longer than a few seconds: its asker hears so, privately. */
  async tellQueued(ctx: CommandContext, ahead: number): Promise<void> {
    this.deps.logger.info({ userId: ctx.userId, ahead }, 'run waits in the queue');
    const runs = ahead === 1 ? '1 run' : `${ahead} runs`;
    try {
      await this.tell(
        ctx,
        noticeMessage(`:hourglass_flowing_sand: Queued behind ${runs}; yours starts as soon as one finishes.`),
      );
    } catch (error) {
      this.deps.logger.warn({ err: error, userId: ctx.userId }, 'could not tell the user their run waits');
    }
  }

  /** Tells the asker what went wrong, privately, with a reference to the log line for anything not their mistake. */
  async reportFailure(error: unknown, text: string, ctx: CommandContext): Promise<void> {
    const key = runKeyOf(ctx);
    if (this.deps.signal.aborted && key && this.deps.store.runs.findByIdempotencyKey(key)?.status === 'running') {
      // Its run stays recorded as running: the next start finishes it from its job or tells the asker.
      this.deps.logger.info({ userId: ctx.userId, key }, 'run interrupted by shutdown; the next start answers it');
      return;
    }
    const failure = describeFailure(error, {
      logger: this.deps.logger,
      what: 'command failed',
      context: { userId: ctx.userId },
    });
    try {
      await this.tell(ctx, failureMessage(error, text, failure));
    } catch (respondError) {
      this.deps.logger.warn({ err: respondError, ref: failure.ref }, 'could not tell the user about a failure');
    }
  }
}

/**
 * The private message for a failure: the caret text for query errors; otherwise what
 * `describeFailure` decided to tell (with its reference), "Did you mean", a hint.
 *
 * @example failureMessage(error, text, describeFailure(error, { logger, what: 'command failed' }))
 */
export function failureMessage(error: unknown, text: string, failure: UserFailure): SlackMessage {
  if (error instanceof QueryError) {
    // What the person typed is quoted back escaped: a `<!here>` in it must not notify the channel again.
    const pointed = escapeMrkdwn(formatQueryError(text, error).replace(/```/g, "'''"));
    const blocks: Block[] = [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `:warning: I could not read that query.\n\`\`\`${pointed}\`\`\`` },
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: '`/pivot help` shows examples, `/pivot help metrics` every metric.' }],
      },
    ];
    return { text: escapeMrkdwn(error.message), blocks };
  }
  const hint =
    error instanceof SlackDeliveryError || !failure.retryable || /try again/i.test(failure.text)
      ? undefined
      : 'Try again in a few minutes.';
  return errorMessage({
    userMessage: failure.text,
    code: failure.code,
    ...(hint ? { hint } : {}),
    ...(failure.suggestions.length > 0 ? { suggestions: failure.suggestions } : {}),
  });
}

/** The store key that makes a command's or message's run happen once. */
export function runKeyOf(ctx: CommandContext): string | undefined {
  if (ctx.triggerId) return `slack:${ctx.triggerId}`;
  return ctx.runKey ? `slack:${ctx.runKey}` : undefined;
}

/** The refusal an admin-only command gets from anyone else. */
export function refusal(what: string): SlackMessage {
  return noticeMessage(
    `:no_entry: Only pivotbot admins can ${what}. Ask one of them, or the operator who runs pivotbot can add you to its admins.`,
  );
}
