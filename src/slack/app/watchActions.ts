/**
 * "Watch this" under an answer: the rule modal (prefilled from the answer's query, its rows and
 * recent values read behind it), redrawn as the metric or row changes, and saved as a watch on
 * submission: a channel watch (an admin's, under an answer in a channel) or a personal one
 * (anyone's: its incidents in the saver's DM, see `watchDestination`).
 */
import { backtestOfEntity, backtestSummary } from '../../alerts/index.js';
import { toError, userMessageOf } from '../../core/index.js';
import { WATCH_PREFIX, watchableQuery, watchId } from '../../query/index.js';
import { fitText } from '../../render/index.js';
import { alertSchema, type ReportDefinition } from '../../reports/index.js';
import { SlackDeliveryError } from '../../slackapi/index.js';
import type { ActionView, SlackAction, ViewAnswer, ViewSubmission } from '../receiver/index.js';
import { adminClick } from './adminClick.js';
import type { PivotCommandsDeps } from './answers.js';
import { type BacktestCommands, refusal } from './backtestCommands.js';
import type { QueryCommands } from './queryCommands.js';
import { backtestHow } from './screens/backtestMessage.js';
import { noticeMessage } from './screens/infoMessages.js';
import { watchChoices } from './watchChoices.js';
import { capRefusal, isPersonalWatch, knownDm } from './watchDestination.js';
import {
  parseWatchMetadata,
  previewRuleOf,
  validateWatchForm,
  WATCH_BLOCKS,
  type WatchChoicesState,
  type WatchForm,
  type WatchPreviewState,
  watchFormFromState,
  watchModalView,
} from './watchModal.js';

const OLD_MODAL = 'This form is from an older pivotbot; close it and open it again.';

export class WatchActions {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly queries: QueryCommands,
    private readonly backtests: BacktestCommands,
  ) {}

  /**
   * "Watch this": the rule modal, prefilled, for anyone (a non-admin's watch is personal: its
   * incidents go to their DM); refused at once to someone who keeps the most personal watches.
   */
  async watchThis(event: SlackAction): Promise<void> {
    const { slack, settings } = this.deps;
    const admitted = await adminClick(this.deps, event, 'save alert rules', { anyone: true });
    if (!admitted) return;
    const { answer, query, channelId } = admitted;
    const full = this.personalCap(channelId, event.userId);
    if (full) return answer(`:no_entry: ${full}`);
    const shape = await this.watchable(query);
    if (!shape || shape.metrics.length === 0) return answer('That answer has no metric to watch.');
    const { definition, ...fields } = shape;
    const base = { query, channel: channelId, timezone: settings.timezone, ...fields };
    let opened: { id: string; hash: string };
    try {
      // Opened at once (the trigger lasts 3 s); the rows and the suggestion follow in an update.
      opened = await slack.viewsOpen(event.triggerId, watchModalView({ ...base, choices: { loading: true } }));
    } catch (error) {
      this.deps.logger.warn({ err: toError(error), userId: event.userId }, 'watch modal not opened');
      await answer(`:warning: The alert form did not open. ${userMessageOf(error)}`);
      return;
    }
    const selected = { metric: fields.metrics[0] as string, on: fields.byEntity ? 'entity' : 'total' };
    const form: WatchForm = { name: '', ...selected, rule: 'anomaly', threshold: '', time: '09:00' };
    await this.redraw(opened, definition, { ...base, selected }, form);
  }

  /** A watch modal's metric or row changed: the view again, with the suggestion for the new pick. */
  async update(view: ActionView): Promise<void> {
    const meta = parseWatchMetadata(view.privateMetadata);
    if (!meta) return;
    const shape = await this.watchable(meta.query);
    if (!shape) return;
    const { definition, ...fields } = shape;
    const form = watchFormFromState(view.values);
    const selected = {
      metric: fields.metrics.includes(form.metric) ? form.metric : (fields.metrics[0] as string),
      on: form.on,
      rule: form.rule,
      threshold: form.threshold,
    };
    const base = { ...meta, timezone: this.deps.settings.timezone, ...fields, selected };
    await this.redraw({ id: view.id, hash: view.hash }, definition, base, { ...form, metric: selected.metric });
  }

  /**
   * Reads the rows and the suggestion, then updates the view with them (or with why they could
   * not be read). A newer redraw that landed first wins (`hash_conflict`).
   */
  /** The query's watchable shape; undefined when it is not one, or the reports folder cannot be read. */
  private watchable(query: string) {
    return this.queries.queryOptions().then(
      (options) => watchableQuery(query, options),
      () => undefined,
    );
  }

  private async redraw(
    view: { id: string; hash: string },
    definition: ReportDefinition,
    base: Parameters<typeof watchModalView>[0] & { selected: { metric: string; on: string } },
    form: WatchForm,
  ): Promise<void> {
    const { client, clock, settings, signal } = this.deps;
    const reading = watchChoices(definition, base.selected, {
      client,
      now: clock(),
      defaultTimeZone: settings.timezone,
      signal,
    }).catch((error: unknown): WatchChoicesState => {
      this.deps.logger.warn({ err: toError(error) }, 'watch modal: rows and recent values not read');
      return { error: userMessageOf(error) };
    });
    const [choices, preview] = await Promise.all([reading, this.preview(definition, form, base.metrics)]);
    try {
      await this.deps.slack.viewsUpdate(view.id, watchModalView({ ...base, choices, preview }), { hash: view.hash });
    } catch (error) {
      if (error instanceof SlackDeliveryError && error.slackError === 'hash_conflict') return;
      throw error;
    }
  }

  /**
   * The form's rule backtested over the last 30 days on the answer's query (narrowed to the row
   * picked, if one), with its chart; or why there is none.
   */
  private async preview(
    definition: ReportDefinition,
    form: WatchForm,
    metrics: readonly string[],
  ): Promise<WatchPreviewState> {
    const described = previewRuleOf(form, { metrics, timezone: this.deps.settings.timezone });
    if ('note' in described) return described;
    try {
      const rule = alertSchema.parse(described.rule);
      const replayed = await this.backtests.backtest({ id: 'watch-preview', definition }, rule);
      const result = described.row === undefined ? replayed : backtestOfEntity(replayed, described.row);
      const chart = await this.backtests.chart(result, rule);
      return { sentence: backtestSummary(result), how: backtestHow(result), ...(chart ? { chart } : {}) };
    } catch (error) {
      const why = refusal(error);
      if (why === undefined) this.deps.logger.warn({ err: toError(error) }, 'watch modal: preview not replayed');
      return { note: `it cannot be replayed: ${why ?? userMessageOf(error)}` };
    }
  }

  async submit(submission: ViewSubmission, track: (work: Promise<unknown>) => void): Promise<ViewAnswer> {
    const { store, settings, slack } = this.deps;
    const meta = parseWatchMetadata(submission.privateMetadata);
    if (!meta) return { errors: { [WATCH_BLOCKS.name]: OLD_MODAL } };
    const personal = isPersonalWatch(meta.channel, { admin: settings.admins.includes(submission.userId) });
    const full = this.personalCap(meta.channel, submission.userId);
    if (full) return { errors: { [WATCH_BLOCKS.name]: full } };
    const shape = await this.watchable(meta.query);
    if (!shape) return { errors: { [WATCH_BLOCKS.name]: 'That query no longer compiles; run it again.' } };
    const verdict = validateWatchForm(watchFormFromState(submission.values), {
      metrics: shape.metrics,
      taken: (name) => store.subscriptions.list().some((s) => s.report === watchId(name)),
      timezone: settings.timezone,
    });
    if (!verdict.ok) return { errors: verdict.errors };
    // One row picked: the watch's query is the answer's narrowed to that row, names by their ids.
    let query = meta.query;
    if (verdict.row !== undefined) {
      const narrowed = await this.queries.entityQuery(shape.definition, verdict.row).catch((error: unknown) => {
        this.deps.logger.warn({ err: toError(error) }, 'watch modal: the row could not be narrowed');
        return { refused: 'its id could not be looked up just now' };
      });
      if ('refused' in narrowed) {
        return {
          errors: {
            [WATCH_BLOCKS.on]: fitText(
              `That row cannot be watched alone (${narrowed.refused}); watch each row instead.`,
              300,
            ),
          },
        };
      }
      query = narrowed.query;
    }
    const destination = personal ? await this.dmOf(submission.userId, meta.channel) : { channel: meta.channel };
    if ('error' in destination) return { errors: { [WATCH_BLOCKS.name]: destination.error } };
    await store.subscriptions.add({
      report: watchId(verdict.name),
      channel: destination.channel,
      query,
      watch: verdict.rule,
      ...(personal ? { owner: submission.userId } : {}),
      createdBy: submission.userId,
    });
    this.deps.logger.info(
      {
        name: verdict.name,
        channel: destination.channel,
        personal,
        row: verdict.row !== undefined,
        watches: store.subscriptions.list().filter((s) => s.report.startsWith(WATCH_PREFIX)).length,
      },
      'watch saved',
    );
    const where = personal
      ? `its incidents open threads in your DM with pivotbot (<#${destination.channel}>), only you see them`
      : `its incidents open threads in <#${destination.channel}>`;
    track(
      slack.ephemeral(
        meta.channel,
        submission.userId,
        noticeMessage(
          `:white_check_mark: Watching \`${verdict.name}\` (\`${query.replace(/`/g, "'")}\`): ${where}. \`/pivot alerts\` lists it; \`/pivot unwatch ${verdict.name}\` removes it; \`pivotbot export ${verdict.name}\` prints it as a report file.`,
        ),
      ),
    );
    return {};
  }

  /** Why `userId` may not save another personal watch from `channel`; undefined when they may (or it is a channel watch). */
  private personalCap(channel: string, userId: string): string | undefined {
    const admin = this.deps.settings.admins.includes(userId);
    if (!isPersonalWatch(channel, { admin })) return undefined;
    return capRefusal(this.deps.store.subscriptions.list(), userId);
  }

  /** The saver's DM with the bot (`conversations.open`), where a personal watch's threads go; or why it is not open. */
  private async dmOf(userId: string, channel: string): Promise<{ channel: string } | { error: string }> {
    const known = knownDm(channel);
    if (known) return { channel: known };
    try {
      if (!this.deps.slack.openDm) throw new Error('this Slack gateway cannot open a direct message');
      return { channel: await this.deps.slack.openDm(userId) };
    } catch (error) {
      this.deps.logger.warn({ err: toError(error), userId }, 'watch: DM not opened');
      return { error: `Your DM with pivotbot could not be opened for its incidents: ${userMessageOf(error)}` };
    }
  }
}
