import {
  describeFailure,
  PivotbotError,
  storedError,
  type UserFailure,
  UserInputError,
  userMessageOf,
} from '../../core/index.js';
import {
  type DeliveryDeps,
  explainReport,
  postExplanation,
  type RunTarget,
  runAndDeliver,
} from '../../delivery/index.js';
import {
  compileQuery,
  formatQueryError,
  QueryError,
  type QueryOptions,
  savedName,
  watchesOf,
  watchId,
  workspaceGlossaryOf,
} from '../../query/index.js';
import { type Block, errorMessage, type SlackMessage } from '../../render/index.js';
import {
  findReport,
  type LoadedReport,
  type LoadedReports,
  type RangeSpec,
  type ReportDefinition,
} from '../../reports/index.js';
import { listSchedules } from '../../scheduler/index.js';
import { nextFires, normalizeTimeZone, timeZoneProblem } from '../../time/index.js';
import { SlackDeliveryError } from '../api/index.js';
import { ModalActions } from './modalActions.js';
import { type ChannelRef, parseSlashCommand, type SlashCommand } from './parseSlashCommand.js';
import { alertsOverview } from './screens/alertsOverview.js';
import { helpTopicMessage } from './screens/helpTopicMessage.js';
import { helpMessage, listMessage, noticeMessage, showMessage, statusMessage } from './screens/infoMessages.js';
import {
  historyMessage,
  scheduleListMessage,
  scheduleOverview,
  subscribedMessage,
  timingText,
} from './screens/scheduleMessages.js';
import { watchesSection } from './screens/watchesSection.js';
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

/** How a follow-up's answer says what it ran: the refined query in catalog terms, the reply, what changed. */
export interface FollowUpLine {
  understood: string;
  reply: string;
  changed: string;
}

/** The message metadata of an answer: the query it ran, which a reply in its thread refines. */
export const ANSWER_EVENT = 'pivotbot_answer';

/** @example answerMetadata('cpi by country yesterday') // { event_type: 'pivotbot_answer', event_payload: { query: 'cpi by country yesterday' } } */
export function answerMetadata(query: string): { event_type: string; event_payload: { query: string } } {
  return { event_type: ANSWER_EVENT, event_payload: { query } };
}

/** What a result's button asks for: the report (or query) again, maybe another range or its CSV. */
export interface ButtonClick {
  reportId: string;
  query?: string;
  range?: string;
  csv: boolean;
}

export interface PivotCommandsDeps extends DeliveryDeps {
  /** Limits how many runs (query, render, upload) work at once; light commands never wait for it. */
  runs: WorkQueue;
  /** The report definitions, read fresh for each command so edits apply without a restart. */
  loadReports: () => Promise<LoadedReports>;
  settings: { admins: readonly string[]; timezone: string; sandbox: boolean };
}

/**
 * The behaviour of `/pivot`: every subcommand, given already-parsed text and who asked. Answers
 * go to the channel (results) or to the asker only (help, errors, confirmations).
 */
export class PivotCommands {
  /** The query builder and "Schedule this" (`modalActions.ts`). */
  readonly modals: ModalActions;

  constructor(private readonly deps: PivotCommandsDeps) {
    this.modals = new ModalActions(deps, this);
  }

  /** Runs the command text; never throws (failures become a private error message). */
  async execute(text: string, ctx: CommandContext): Promise<void> {
    try {
      await this.dispatch(parseSlashCommand(text), text, ctx);
    } catch (error) {
      await this.reportFailure(error, text, ctx);
    }
  }

  /**
   * A button click on a result: run the same report or query again (another range, or with its
   * CSV into the message's thread). Never throws.
   */
  async button(click: ButtonClick, ctx: CommandContext & { threadTs?: string }): Promise<void> {
    try {
      const report =
        click.query !== undefined ? await this.adhocReport(click.query) : await this.report(click.reportId);
      await this.deliver(
        {
          report,
          ...(click.query !== undefined ? { query: click.query } : {}),
          ...(click.range ? { range: click.range } : {}),
          csv: click.csv,
          post: {
            metadata: answerMetadata(click.query ?? `run ${click.reportId}${click.range ? ` ${click.range}` : ''}`),
          },
        },
        ctx,
        click.query ?? `run ${click.reportId}${click.range ? ` ${click.range}` : ''}`,
      );
    } catch (error) {
      await this.reportFailure(error, click.query ?? `run ${click.reportId}`, ctx);
    }
  }

  /**
   * The Explain button of an answer with a comparison: why its metrics moved, in the answer's
   * thread. Never throws.
   */
  async explainClick(click: Omit<ButtonClick, 'csv'>, ctx: CommandContext & { threadTs?: string }): Promise<void> {
    const text = click.query ?? `run ${click.reportId}`;
    try {
      const report =
        click.query !== undefined ? await this.adhocReport(click.query) : await this.report(click.reportId);
      await this.explainAndPost(report, ctx, click.range);
    } catch (error) {
      await this.reportFailure(error, `why ${text}`, ctx);
    }
  }

  /** `/pivot why <query>`: the query's metrics explained against its comparison (previous period by default). */
  private async why(text: string, ctx: CommandContext): Promise<void> {
    const compiled = compileQuery(text, await this.queryOptions());
    const report =
      compiled.kind === 'run'
        ? await this.report(compiled.report.value)
        : { id: 'adhoc', definition: compiled.definition };
    const range = compiled.kind === 'run' ? compiled.range : undefined;
    await this.explainAndPost(report, ctx, range, text);
  }

  /**
   * A reply in an answer's thread, read by `applyFollowUp`: runs the refined query into the thread,
   * its first line the whole query in catalog terms. Never throws.
   */
  async followUp(
    answer: { text: string; csv?: boolean; chart?: boolean } & FollowUpLine,
    ctx: CommandContext,
  ): Promise<void> {
    try {
      await this.query(answer.text, ctx, {
        followUp: { understood: answer.understood, reply: answer.reply, changed: answer.changed },
        ...(answer.csv ? { csv: true } : {}),
      });
    } catch (error) {
      await this.reportFailure(error, answer.text, ctx);
    }
  }

  /** `why?` in an answer's thread: the explanation of its query, in the thread. Never throws. */
  async explainFollowUp(query: string, ctx: CommandContext): Promise<void> {
    try {
      await this.why(query, ctx);
    } catch (error) {
      await this.reportFailure(error, `why ${query}`, ctx);
    }
  }

  /** Tells the asker something where they asked (a reply when in a conversation). */
  async tell(ctx: CommandContext, message: SlackMessage): Promise<void> {
    await this.private(ctx, message);
  }

  private async explainAndPost(
    report: { id: string; definition: ReportDefinition },
    ctx: CommandContext & { threadTs?: string },
    range?: RangeSpec,
    query?: string,
  ): Promise<void> {
    await this.deps.runs.run(
      async () => {
        const explained = await explainReport(
          { report, asOf: this.deps.clock(), ...(range !== undefined ? { range } : {}) },
          this.deps,
        );
        if (explained.metrics.length === 0) {
          const why = explained.skipped.map((s) => `${s.label}: ${s.reason}`).join('; ');
          throw new UserInputError(
            'NOTHING_TO_EXPLAIN',
            why ? `Nothing here can be explained: ${why}` : 'That query has no metric to explain.',
          );
        }
        const title = query ? `/pivot why ${query}` : report.definition.title;
        await postExplanation(
          explained,
          { title, channel: ctx.channelId, ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}), reportId: report.id },
          this.deps,
        );
      },
      { onWait: (ahead) => void this.tellQueued(ctx, ahead) },
    );
  }

  /** Loads a named report (with "Did you mean" when it does not exist). */
  async report(id: string) {
    return findReport(await this.deps.loadReports(), id);
  }

  /**
   * A query from the builder modal, run as if typed (the text was checked in the submission's
   * ack). Never throws.
   */
  async runSubmitted(text: string, ctx: CommandContext): Promise<void> {
    try {
      await this.query(text, ctx);
    } catch (error) {
      await this.reportFailure(error, text, ctx);
    }
  }

  /** The clock, zone and glossary (with the workspace's words from the reports folder) of a query. */
  async queryOptions(): Promise<QueryOptions> {
    const { glossary } = workspaceGlossaryOf(await this.deps.loadReports());
    return { now: this.deps.clock(), defaultTimeZone: this.deps.settings.timezone, glossary };
  }

  /** Whether `text` compiles as a query (its errors are not wanted: the caller has its own). */
  private async compiles(text: string): Promise<boolean> {
    try {
      compileQuery(text, await this.queryOptions());
      return true;
    } catch {
      return false;
    }
  }

  private async adhocReport(query: string): Promise<{ id: string; definition: ReportDefinition }> {
    const compiled = compileQuery(query, await this.queryOptions());
    if (compiled.kind === 'run') throw new QueryError('A button cannot carry a run command.', 0, query.length);
    return { id: 'adhoc', definition: compiled.definition };
  }

  private async dispatch(command: SlashCommand, text: string, ctx: CommandContext): Promise<void> {
    const { settings, store } = this.deps;
    switch (command.kind) {
      case 'new':
        // Without a trigger id (an old Slack client, a test) there is no modal to open: help.
        if (ctx.triggerId) return this.modals.openBuilder(ctx.triggerId, ctx.channelId, ctx.responseUrl);
        return this.private(ctx, helpMessage(settings));
      case 'help':
        return this.private(
          ctx,
          command.topic
            ? helpTopicMessage(
                command.topic,
                command.page ?? 1,
                workspaceGlossaryOf(await this.deps.loadReports()).glossary,
              )
            : helpMessage(settings),
        );
      case 'list':
        return this.private(ctx, listMessage(await this.deps.loadReports(), settings.timezone));
      case 'show': {
        // "show spend by country" names no report: when the words read as a query, answer it.
        const report = await this.report(command.report).catch(async (error: unknown) => {
          if (await this.compiles(text)) return undefined;
          throw error;
        });
        if (!report) return this.query(text, ctx);
        return this.private(ctx, showMessage(report, store.subscriptions.listByReport(report.id), settings.timezone));
      }
      case 'status':
        return this.private(
          ctx,
          statusMessage(store.jobs.get(command.jobId), command.jobId, await this.liveStatus(command.jobId)),
        );
      case 'alerts':
        return this.private(ctx, await this.alertsMessage(ctx.userId));
      case 'subscribe':
        return this.subscribe(command, ctx);
      case 'schedule':
        return this.private(ctx, await this.scheduleList());
      case 'history': {
        const report = await this.report(command.report);
        return this.private(
          ctx,
          historyMessage(
            { id: report.id, title: report.definition.title },
            store.runs.listByReport(report.id, 10),
            store.incidents,
          ),
        );
      }
      case 'unsubscribe':
        return this.unsubscribe(command, ctx);
      case 'unwatch':
        return this.unwatch(command.name, ctx);
      case 'why':
        return this.why(command.text, ctx);
      case 'query':
        return this.query(command.text || text, ctx);
    }
  }

  private async query(
    text: string,
    ctx: CommandContext,
    how: { followUp?: FollowUpLine; csv?: boolean } = {},
  ): Promise<void> {
    const compiled = compileQuery(text, await this.queryOptions());
    // The answer carries its query: a reply in its thread refines it (`applyFollowUp`).
    const post = { metadata: answerMetadata(text) };
    if (compiled.kind === 'run') {
      const report = await this.report(compiled.report.value);
      return this.deliver(
        {
          report,
          ...(compiled.range !== undefined ? { range: compiled.range } : {}),
          post,
          ...(how.csv ? { csv: true } : {}),
        },
        ctx,
        text,
      );
    }
    return this.deliver(
      {
        report: { id: 'adhoc', definition: compiled.definition },
        query: text,
        csv: compiled.csv || how.csv === true,
        post,
        ...(how.followUp ? { followUp: how.followUp } : {}),
      },
      ctx,
      text,
    );
  }

  /** Runs and posts, recording the run under the command's trigger id so a retried request never runs twice. */
  private async deliver(
    target: RunTarget,
    ctx: CommandContext & { threadTs?: string },
    command?: string,
  ): Promise<void> {
    const key = runKeyOf(ctx);
    let runId: string | undefined;
    if (key) {
      const { run, started } = await this.deps.store.runs.start({
        report: target.report.id,
        trigger: 'manual',
        idempotencyKey: key,
        channel: ctx.channelId,
        // Kept so that a restart that interrupts the run can tell the requester how to run it again.
        requester: ctx.userId,
        ...(command ? { command } : {}),
      });
      if (!started) {
        this.deps.logger.info({ key }, 'duplicate Slack request ignored');
        return;
      }
      runId = run.id;
    }
    try {
      const delivered = await this.deps.runs.run(
        (release) =>
          runAndDeliver(
            target,
            {
              channel: ctx.channelId,
              user: ctx.userId,
              ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
              // An async job mostly waits from then on: its slot goes to the next run.
              onAsync: release,
              ...(runId ? { runId } : {}),
            },
            this.deps,
          ),
        { onWait: (ahead) => void this.tellQueued(ctx, ahead) },
      );
      if (runId) {
        // A command's run has no gate: it always posts (only a quiet digest may not).
        const { messageTs } = delivered;
        await this.deps.store.runs.finish(runId, { status: 'succeeded', ...(messageTs ? { messageTs } : {}) });
      }
    } catch (error) {
      // On shutdown the run stays `running`: the next start finishes it from its job or tells the requester.
      if (runId && !this.deps.signal.aborted) {
        // `/pivot history` shows this to users: their text; the internal one is in the log.
        await this.deps.store.runs
          .finish(runId, { status: 'failed', error: storedError(error) })
          .catch(() => undefined);
      }
      throw error;
    }
  }

  private async subscribe(command: Extract<SlashCommand, { kind: 'subscribe' }>, ctx: CommandContext): Promise<void> {
    if (!this.isAdmin(ctx.userId)) return this.private(ctx, refusal('subscribe channels to digests'));
    const report = await this.report(command.report);
    const channel = this.channelId(command.channel, ctx);
    let timezone: string | undefined;
    if (command.timezone !== undefined) {
      timezone = normalizeTimeZone(command.timezone);
      const problem = timeZoneProblem(command.timezone);
      if (timezone === undefined || problem) {
        throw new UserInputError('BAD_TIMEZONE', problem?.message ?? `"${command.timezone}" is not a time zone.`);
      }
    }
    const own = command.schedule;
    if (!own && !report.definition.schedule) {
      throw new UserInputError(
        'REPORT_NOT_SCHEDULED',
        `\`${report.id}\` has no schedule of its own; give one: \`/pivot subscribe ${report.id} at 09:00\` or \`cron "0 9 * * 1-5"\`.`,
      );
    }
    if (!own && (await this.reportPostsIn(report, channel))) {
      throw new UserInputError(
        'ALREADY_POSTS_HERE',
        `\`${report.id}\` already posts in <#${channel}> on its own schedule (its file's \`deliver.channels\`): a subscription on that schedule would post every digest twice. Give it another time, e.g. \`/pivot subscribe ${report.id} at 14:00\`.`,
      );
    }
    const { subscription, created } = await this.deps.store.subscriptions.add({
      report: report.id,
      channel,
      createdBy: ctx.userId,
      ...(own && 'at' in own ? { at: own.at } : {}),
      ...(own && 'cron' in own ? { cron: own.cron } : {}),
      ...(timezone ? { timezone } : {}),
    });
    // The schedule exactly as the scheduler will run it (zone fallbacks included).
    const { schedules } = listSchedules({ reports: [report], broken: [] }, [subscription], {
      timezone: this.deps.settings.timezone,
    });
    const spec = schedules.find((s) => s.subscriptionId === subscription.id);
    const userZone = (await this.deps.slack.userTimeZone?.(ctx.userId).catch(() => undefined)) ?? spec?.timezone;
    return this.private(
      ctx,
      subscribedMessage({
        created,
        channel,
        report: { id: report.id, title: report.definition.title },
        timing: spec ? `${own ? '' : 'on the report’s schedule, '}${timingText(spec)}` : 'on a timing that cannot run',
        fires: spec ? nextFires(spec, this.deps.clock(), 3) : [],
        userZone: userZone ?? this.deps.settings.timezone,
      }),
    );
  }

  /** `/pivot schedule`: what the scheduler runs, computed as it computes it, with each last run. */
  private async scheduleList() {
    return scheduleListMessage(
      scheduleOverview({
        reports: await this.deps.loadReports(),
        subscriptions: this.deps.store.subscriptions.list(),
        runs: this.deps.store.runs,
        incidents: this.deps.store.incidents,
        timezone: this.deps.settings.timezone,
        now: this.deps.clock(),
      }),
    );
  }

  private async unsubscribe(
    command: Extract<SlashCommand, { kind: 'unsubscribe' }>,
    ctx: CommandContext,
  ): Promise<void> {
    if (!this.isAdmin(ctx.userId)) return this.private(ctx, refusal('unsubscribe channels'));
    const channel = this.channelId(command.channel, ctx);
    const removed = await this.deps.store.subscriptions.remove(command.report, channel);
    return this.private(
      ctx,
      noticeMessage(
        removed
          ? `:white_check_mark: <#${channel}> no longer gets \`${removed.report}\`.`
          : `<#${channel}> was not subscribed to \`${command.report}\`; \`/pivot show ${command.report}\` lists its channels.`,
      ),
    );
  }

  /** `/pivot unwatch <name>`: removes a watch ("Watch this"); its rule is no longer evaluated. */
  private async unwatch(name: string, ctx: CommandContext): Promise<void> {
    if (!this.isAdmin(ctx.userId)) return this.private(ctx, refusal('remove alert rules'));
    await this.removeWatch(name);
    return this.private(ctx, noticeMessage(`:white_check_mark: \`${name}\` is no longer watched.`));
  }

  /** Removes the watch `name` (any channel); a typed error naming the watches when there is none. */
  private async removeWatch(name: string): Promise<void> {
    const { store } = this.deps;
    const found = store.subscriptions.list().find((s) => s.report === watchId(name) && s.watch !== undefined);
    if (!found) {
      const names = watchesOf(store.subscriptions.list()).map((s) => savedName(s.report));
      throw new UserInputError(
        'WATCH_NOT_FOUND',
        `There is no watch "${name}".${names.length > 0 ? ` Watches: ${names.join(', ')}.` : ' Save one with "Watch this" under an answer.'}`,
      );
    }
    await store.subscriptions.remove(found.report, found.channel);
    this.deps.logger.info({ name, channel: found.channel }, 'watch removed');
  }

  /**
   * `/pivot alerts` as `userId` sees it: the alerts summary, then the watches, each with a Remove
   * button when they are an admin. App Home shows the same blocks.
   *
   * @example await commands.alertsMessage('U0ADMIN1')
   */
  async alertsMessage(userId: string): Promise<SlackMessage> {
    const { store, settings } = this.deps;
    const summary = alertsOverview({
      reports: await this.deps.loadReports(),
      incidents: store.incidents,
      runs: store.runs,
      now: this.deps.clock(),
      timezone: settings.timezone,
    });
    const watches = watchesSection(store.subscriptions.list(), { removable: this.isAdmin(userId) });
    if (watches.length === 0) return summary;
    return { ...summary, blocks: [...(summary.blocks ?? []), ...watches].slice(0, 50) };
  }

  /**
   * A watch's Remove button (after Slack's confirm dialog): admins only. From `/pivot alerts` the
   * private message is replaced by the alerts again with a line saying what was removed; from App
   * Home the caller publishes the tab again. Never throws.
   */
  async unwatchClick(click: { name?: string | undefined; userId: string; responseUrl?: string }): Promise<void> {
    const { slack } = this.deps;
    let note: string;
    if (!this.isAdmin(click.userId)) {
      note = ':no_entry: Only pivotbot admins can remove alert rules.';
    } else if (click.name === undefined) {
      note = 'That button is from an older pivotbot version; run `/pivot alerts` again.';
    } else {
      try {
        await this.removeWatch(click.name);
        note = `:white_check_mark: \`${click.name}\` is no longer watched.`;
      } catch (error) {
        note = `:warning: ${userMessageOf(error)}`;
      }
    }
    if (!click.responseUrl) {
      if (!note.startsWith(':white_check_mark:'))
        this.deps.logger.info({ userId: click.userId, note }, 'unwatch click');
      return;
    }
    try {
      const message = await this.alertsMessage(click.userId);
      const blocks = [noticeMessage(note).blocks?.[0], ...(message.blocks ?? [])].filter((b) => b !== undefined);
      await slack.respond(
        click.responseUrl,
        { ...message, text: note, blocks: blocks.slice(0, 50) as Block[] },
        { replaceOriginal: true },
      );
    } catch (error) {
      this.deps.logger.warn({ err: error, userId: click.userId }, 'unwatch answer not sent');
    }
  }

  private isAdmin(userId: string): boolean {
    return this.deps.settings.admins.includes(userId);
  }

  /** Whether the report's own file delivers to `channelId` (its `#name` channels looked up in Slack). */
  private async reportPostsIn(report: LoadedReport, channelId: string): Promise<boolean> {
    for (const written of report.definition.deliver?.channels ?? []) {
      const id = written.startsWith('#') ? await this.deps.slack.channelId?.(written).catch(() => undefined) : written;
      if (id === channelId) return true;
    }
    return false;
  }

  private channelId(ref: ChannelRef | undefined, ctx: CommandContext): string {
    if (!ref) return ctx.channelId;
    if (ref.id) return ref.id;
    throw new PivotbotError('CHANNEL_NAME_ONLY', `Channel #${ref.name} given by name only`, {
      userMessage: `Pick #${ref.name} from Slack's channel suggestions when you type it (so I get its id), or run the command in that channel.`,
    });
  }

  private async liveStatus(jobId: string): Promise<string | undefined> {
    try {
      return (await this.deps.client.asyncPivot(jobId)).status;
    } catch {
      return undefined;
    }
  }

  private async private(ctx: CommandContext, message: SlackMessage): Promise<void> {
    if (ctx.inConversation) {
      await this.deps.slack.post(ctx.channelId, message, ctx.threadTs ? { threadTs: ctx.threadTs } : {});
      return;
    }
    if (ctx.responseUrl) await this.deps.slack.respond(ctx.responseUrl, message);
    else await this.deps.slack.ephemeral(ctx.channelId, ctx.userId, message);
  }

  /** A run waits for a slot longer than a few seconds: its asker hears so, privately. */
  private async tellQueued(ctx: CommandContext, ahead: number): Promise<void> {
    this.deps.logger.info({ userId: ctx.userId, ahead }, 'run waits in the queue');
    const runs = ahead === 1 ? '1 run' : `${ahead} runs`;
    try {
      await this.private(
        ctx,
        noticeMessage(`:hourglass_flowing_sand: Queued behind ${runs}; yours starts as soon as one finishes.`),
      );
    } catch (error) {
      this.deps.logger.warn({ err: error, userId: ctx.userId }, 'could not tell the user their run waits');
    }
  }

  /** Tells the asker what went wrong, privately, with a reference to the log line for anything not their mistake. */
  private async reportFailure(error: unknown, text: string, ctx: CommandContext): Promise<void> {
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
      await this.private(ctx, failureMessage(error, text, failure));
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
    const pointed = formatQueryError(text, error).replace(/```/g, "'''");
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
    return { text: error.message, blocks };
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
function runKeyOf(ctx: CommandContext): string | undefined {
  if (ctx.triggerId) return `slack:${ctx.triggerId}`;
  return ctx.runKey ? `slack:${ctx.runKey}` : undefined;
}

function refusal(what: string): SlackMessage {
  return noticeMessage(
    `:no_entry: Only pivotbot admins can ${what}. Ask one of them, or the operator who runs pivotbot can add you to its admins.`,
  );
}
