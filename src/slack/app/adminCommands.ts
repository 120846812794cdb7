/**
 * The admin side of `/pivot`: subscriptions (`subscribe`, `unsubscribe`, `schedule`), refused to
 * anyone not in the admins list, and watches (`alerts`, `unwatch`, the Remove button): a channel
 * watch is an admin's to remove, a personal watch its owner's (and any admin's).
 */
import { ErrorCode, PivotbotError, UserInputError, userMessageOf } from '../../core/index.js';
import { savedName, watchAccess, watchesOf, watchId } from '../../query/index.js';
import type { Block, SlackMessage } from '../../render/index.js';
import type { LoadedReport } from '../../reports/index.js';
import { listSchedules } from '../../scheduler/index.js';
import { nextFires, normalizeTimeZone, timeZoneProblem } from '../../time/index.js';
import { type Answers, type CommandContext, type PivotCommandsDeps, refusal } from './answers.js';
import { channelRefusal } from './channelReach.js';
import type { ChannelRef, SlashCommand } from './parseSlashCommand.js';
import type { QueryCommands } from './queryCommands.js';
import { alertsOverview } from './screens/alertsOverview.js';
import { noticeMessage } from './screens/infoMessages.js';
import { scheduleListMessage, scheduleOverview, subscribedMessage, timingText } from './screens/scheduleMessages.js';
import { visibleAlerts, watchesSection } from './screens/watchesSection.js';

/** Subscriptions and watches: what admins change. */
export class AdminCommands {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly answers: Answers,
    private readonly queries: QueryCommands,
  ) {}

  async subscribe(command: Extract<SlashCommand, { kind: 'subscribe' }>, ctx: CommandContext): Promise<void> {
    if (!this.isAdmin(ctx.userId)) return this.answers.tell(ctx, refusal('subscribe channels to digests'));
    const report = await this.queries.report(command.report);
    const channel = this.channelId(command.channel, ctx);
    let timezone: string | undefined;
    if (command.timezone !== undefined) {
      timezone = normalizeTimeZone(command.timezone);
      const problem = timeZoneProblem(command.timezone);
      if (timezone === undefined || problem) {
        throw new UserInputError(
          ErrorCode.BadTimezone,
          problem?.message ?? `"${command.timezone}" is not a time zone.`,
        );
      }
    }
    const own = command.schedule;
    if (!own && !report.definition.schedule) {
      throw new UserInputError(
        ErrorCode.ReportNotScheduled,
        `\`${report.id}\` has no schedule of its own; give one: \`/pivot subscribe ${report.id} at 09:00\` or \`cron "0 9 * * 1-5"\`.`,
      );
    }
    if (!own && (await this.reportPostsIn(report, channel))) {
      throw new UserInputError(
        ErrorCode.AlreadyPostsHere,
        `\`${report.id}\` already posts in <#${channel}> on its own schedule (its file's \`deliver.channels\`): a subscription on that schedule would post every digest twice. Give it another time, e.g. \`/pivot subscribe ${report.id} at 14:00\`.`,
      );
    }
    // Refused now, with the fix, rather than failing at the first slot.
    const unreachable = await channelRefusal(this.deps.slack, channel, ctx.userId, this.deps.logger);
    if (unreachable) throw new UserInputError(ErrorCode.ChannelUnreachable, unreachable);
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
    return this.answers.tell(
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
  async scheduleList() {
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

  async unsubscribe(command: Extract<SlashCommand, { kind: 'unsubscribe' }>, ctx: CommandContext): Promise<void> {
    if (!this.isAdmin(ctx.userId)) return this.answers.tell(ctx, refusal('unsubscribe channels'));
    const channel = this.channelId(command.channel, ctx);
    const removed = await this.deps.store.subscriptions.remove(command.report, channel);
    return this.answers.tell(
      ctx,
      noticeMessage(
        removed
          ? `:white_check_mark: <#${channel}> no longer gets \`${removed.report}\`.`
          : `<#${channel}> was not subscribed to \`${command.report}\`; \`/pivot show ${command.report}\` lists its channels.`,
      ),
    );
  }

  /**
   * `/pivot unwatch <name>`: removes a watch ("Watch this"); its rule is no longer evaluated. An
   * admin removes any watch; anyone else only their own personal watches.
   */
  async unwatch(name: string, ctx: CommandContext): Promise<void> {
    const refused = await this.removeWatch(name, ctx.userId);
    if (refused) return this.answers.tell(ctx, refusal(refused));
    return this.answers.tell(ctx, noticeMessage(`:white_check_mark: \`${name}\` is no longer watched.`));
  }

  /**
   * Removes the watch `name` (any channel, any DM) when `userId` may: undefined once removed, or
   * what they may not do (for `refusal`). A typed error naming the watches they see when there is
   * no such watch.
   */
  private async removeWatch(name: string, userId: string): Promise<string | undefined> {
    const { store } = this.deps;
    const who = { userId, admin: this.isAdmin(userId) };
    const found = store.subscriptions.list().find((s) => s.report === watchId(name) && s.watch !== undefined);
    if (!found || !watchAccess(found, who).visible) {
      const names = watchesOf(store.subscriptions.list())
        .filter((s) => watchAccess(s, who).visible)
        .map((s) => savedName(s.report));
      throw new UserInputError(
        ErrorCode.WatchNotFound,
        `There is no watch "${name}".${names.length > 0 ? ` Watches: ${names.join(', ')}.` : ' Save one with "Watch this" under an answer.'}`,
      );
    }
    if (!watchAccess(found, who).removable) {
      return 'remove alert rules that post in a channel (your own personal watches are yours to remove)';
    }
    await store.subscriptions.remove(found.report, found.channel);
    this.deps.logger.info({ name, channel: found.channel, personal: found.owner !== undefined }, 'watch removed');
    return undefined;
  }

  /**
   * `/pivot alerts` as `userId` sees it: the alerts summary, then the watches, each with a Remove
   * button when they are an admin. App Home shows the same blocks.
   *
   * @example await commands.admin.alertsMessage('U0ADMIN1')
   */
  async alertsMessage(userId: string): Promise<SlackMessage> {
    const { store, settings } = this.deps;
    const who = { userId, admin: this.isAdmin(userId) };
    // Others' personal watches are theirs: their rules and incidents are left out too.
    const visible = visibleAlerts(await this.deps.loadReports(), store.incidents, store.subscriptions.list(), who);
    const summary = alertsOverview({
      ...visible,
      runs: store.runs,
      now: this.deps.clock(),
      timezone: settings.timezone,
    });
    const watches = watchesSection(store.subscriptions.list(), who);
    if (watches.length === 0) return summary;
    return { ...summary, blocks: [...(summary.blocks ?? []), ...watches].slice(0, 50) };
  }

  /**
   * A watch's Remove button (after Slack's confirm dialog): an admin's, or a personal watch's
   * owner's. From `/pivot alerts` the
   * private message is replaced by the alerts again with a line saying what was removed; from App
   * Home the caller publishes the tab again. Never throws.
   */
  async unwatchClick(click: { name?: string | undefined; userId: string; responseUrl?: string }): Promise<void> {
    const { slack } = this.deps;
    let note: string;
    if (click.name === undefined) {
      note = 'That button is from an older pivotbot version; run `/pivot alerts` again.';
    } else {
      try {
        const refused = await this.removeWatch(click.name, click.userId);
        note = refused
          ? `:no_entry: Only pivotbot admins can ${refused}.`
          : `:white_check_mark: \`${click.name}\` is no longer watched.`;
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
      const blocks = [noticeMessage(note).blocks?.[0], ...(message.blocks ?? [])].filter(
        (b): b is Block => b !== undefined,
      );
      await slack.respond(
        click.responseUrl,
        { ...message, text: note, blocks: blocks.slice(0, 50) },
        { replaceOriginal: true },
      );
    } catch (error) {
      this.deps.logger.warn({ err: error, userId: click.userId }, 'unwatch answer not sent');
    }
  }

  isAdmin(userId: string): boolean {
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
    throw new PivotbotError(ErrorCode.ChannelNameOnly, `Channel #${ref.name} given by name only`, {
      userMessage: `Pick #${ref.name} from Slack's channel suggestions when you type it (so I get its id), or run the command in that channel.`,
    });
  }
}
