/**
 * The Slack side of pivotbot's modals, in the bot's thread: opening the query builder and
 * "Schedule this", redrawing the builder as its fields change (views.update with the view's hash),
 * and judging submissions, whose verdict the receiver puts in Slack's ack.
 */
import { toError, userMessageOf } from '../../core/index.js';
import {
  compileQuery,
  entityQueryOf,
  type GlossaryTerm,
  savedQueriesOf,
  savedQueryId,
  WATCH_PREFIX,
  watchId,
  workspaceGlossaryOf,
} from '../../query/index.js';
import type { ReportDefinition } from '../../reports/index.js';
import { SlackDeliveryError } from '../api/index.js';
import type { SlackEvent, ViewAnswer, ViewSubmission } from '../receiver/index.js';
import type { PivotCommands, PivotCommandsDeps } from './PivotCommands.js';
import { queryModalView } from './queryModal.js';
import {
  fieldsFromState,
  parseModalMetadata,
  QUERY_BLOCKS,
  QUERY_MODAL_CALLBACK,
  validateQueryModal,
} from './queryModalFields.js';
import {
  parseScheduleMetadata,
  SCHEDULE_BLOCKS,
  SCHEDULE_MODAL_CALLBACK,
  scheduleFormFromState,
  scheduleModalView,
  validateScheduleForm,
} from './scheduleModal.js';
import { noticeMessage } from './screens/infoMessages.js';
import { watchChoices } from './watchChoices.js';
import {
  parseWatchMetadata,
  validateWatchForm,
  WATCH_BLOCKS,
  WATCH_MODAL_CALLBACK,
  type WatchChoicesState,
  watchFormFromState,
  watchModalView,
} from './watchModal.js';

type ModalAction = Extract<SlackEvent, { type: 'modalAction' }>;
type ScheduleThis = Extract<SlackEvent, { type: 'scheduleThis' }>;

const OLD_MODAL = 'This form is from an older pivotbot; close it and open it again.';

export class ModalActions {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly commands: PivotCommands,
  ) {}

  /** The glossary terms of the last redraw: a builder redraws with them at once (see `terms`). */
  private lastTerms: GlossaryTerm[] | undefined;

  /**
   * The pickers' words. Once known, a redraw uses the last ones and refreshes them behind it:
   * checking the reports folder waits on the disk, which is slowest in a 9:00 burst, and a
   * redraw is what a person watches (a word added to reports/glossary.yaml shows one redraw later).
   */
  private async terms(): Promise<GlossaryTerm[]> {
    const fresh = this.deps.loadReports().then((loaded) => {
      this.lastTerms = [...workspaceGlossaryOf(loaded).glossary.terms];
      return this.lastTerms;
    });
    if (this.lastTerms === undefined) return fresh;
    fresh.catch((error: unknown) => this.deps.logger.warn({ err: toError(error) }, 'report folder not read'));
    return this.lastTerms;
  }

  /**
   * `/pivot` alone or `/pivot new`: the query builder, bound to the channel it was opened in and
   * to the command's response_url for private answers.
   */
  async openBuilder(triggerId: string, channel: string, responseUrl?: string): Promise<void> {
    await this.deps.slack.viewsOpen(
      triggerId,
      queryModalView({ channel, ...(responseUrl ? { responseUrl } : {}), terms: await this.terms() }),
    );
  }

  /**
   * A builder field changed: the view again with the new query line. A newer change that landed
   * first makes Slack refuse this one (`hash_conflict`): that newer redraw shows the latest line.
   */
  async update(event: ModalAction): Promise<void> {
    if (event.callbackId === WATCH_MODAL_CALLBACK) return this.updateWatch(event);
    if (event.callbackId !== QUERY_MODAL_CALLBACK) return;
    const meta = parseModalMetadata(event.privateMetadata);
    if (!meta) return;
    const view = queryModalView({
      ...meta,
      terms: await this.terms(),
      fields: fieldsFromState(event.values),
    });
    try {
      await this.deps.slack.viewsUpdate(event.viewId, view, { hash: event.hash });
    } catch (error) {
      if (error instanceof SlackDeliveryError && error.slackError === 'hash_conflict') {
        this.deps.logger.debug({ viewId: event.viewId }, 'modal changed again before its redraw; skipped');
        return;
      }
      throw error;
    }
  }

  /** A submission: errors for the modal, or nothing (it closes) with the work started. Never throws. */
  async submit(submission: ViewSubmission, track: (work: Promise<unknown>) => void): Promise<ViewAnswer> {
    try {
      if (submission.callbackId === QUERY_MODAL_CALLBACK) return await this.submitQuery(submission, track);
      if (submission.callbackId === SCHEDULE_MODAL_CALLBACK) return await this.submitSchedule(submission, track);
      if (submission.callbackId === WATCH_MODAL_CALLBACK) return await this.submitWatch(submission, track);
      return {};
    } catch (error) {
      this.deps.logger.warn({ err: toError(error), callbackId: submission.callbackId }, 'modal submission failed');
      const block =
        submission.callbackId === SCHEDULE_MODAL_CALLBACK
          ? SCHEDULE_BLOCKS.name
          : submission.callbackId === WATCH_MODAL_CALLBACK
            ? WATCH_BLOCKS.name
            : QUERY_BLOCKS.metrics;
      return { errors: { [block]: 'That did not work; try again in a moment.' } };
    }
  }

  private async submitQuery(submission: ViewSubmission, track: (work: Promise<unknown>) => void): Promise<ViewAnswer> {
    const meta = parseModalMetadata(submission.privateMetadata);
    if (!meta) return { errors: { [QUERY_BLOCKS.metrics]: OLD_MODAL } };
    const verdict = validateQueryModal(fieldsFromState(submission.values), await this.commands.queryOptions());
    if (!verdict.ok) return { errors: verdict.errors };
    // Run exactly as typed; the view id keys the run, so a submission Slack sends twice runs once.
    track(
      this.commands.runSubmitted(verdict.query, {
        userId: submission.userId,
        channelId: meta.channel,
        ...(meta.responseUrl ? { responseUrl: meta.responseUrl } : {}),
        triggerId: `view:${submission.viewId}`,
      }),
    );
    return {};
  }

  /**
   * The shared start of an admin's button on an answer ("Schedule this", "Watch this"): how to
   * answer the clicker privately, and the answer's query and channel; undefined when the clicker was
   * already told why not (not an admin, or a button from an older version).
   */
  private async adminClick(
    event: ScheduleThis,
    what: string,
  ): Promise<{ answer: (text: string) => Promise<void>; query: string; channelId: string } | undefined> {
    const { slack, settings } = this.deps;
    const answer = async (text: string): Promise<void> => {
      await (event.responseUrl
        ? slack.respond(event.responseUrl, noticeMessage(text))
        : slack.ephemeral(event.channelId ?? event.userId, event.userId, noticeMessage(text)));
    };
    if (!settings.admins.includes(event.userId)) {
      await answer(
        `:no_entry: Only pivotbot admins can ${what}. Ask one of them, or the operator who runs pivotbot can add you to its admins.`,
      );
      return undefined;
    }
    const query = queryOfButton(event.value);
    if (!query || !event.channelId) {
      await answer('That button is from an older pivotbot version; run the query again.');
      return undefined;
    }
    return { answer, query, channelId: event.channelId };
  }

  /** "Schedule this": refused to non-admins (as subscriptions are); otherwise the schedule modal. */
  async scheduleThis(event: ScheduleThis): Promise<void> {
    const { slack, settings } = this.deps;
    const admitted = await this.adminClick(event, 'schedule queries');
    if (!admitted) return;
    const { answer, query, channelId } = admitted;
    let understood: string | undefined;
    try {
      const compiled = compileQuery(query, await this.commands.queryOptions());
      understood = compiled.kind === 'run' ? undefined : compiled.definition.description;
    } catch {
      understood = undefined;
    }
    try {
      await slack.viewsOpen(
        event.triggerId,
        scheduleModalView({
          query,
          channel: channelId,
          timezone: settings.timezone,
          ...(understood ? { understood } : {}),
        }),
      );
    } catch (error) {
      this.deps.logger.warn({ err: toError(error), userId: event.userId }, 'schedule modal not opened');
      await answer(`:warning: The scheduling form did not open. ${userMessageOf(error)}`);
    }
  }

  /** "Watch this": refused to non-admins (as alerts are theirs to manage); otherwise the rule modal, prefilled. */
  async watchThis(event: ScheduleThis): Promise<void> {
    const { slack, settings } = this.deps;
    const admitted = await this.adminClick(event, 'save alert rules');
    if (!admitted) return;
    const { answer, query, channelId } = admitted;
    let shape: ReturnType<typeof watchable>;
    try {
      shape = watchable(compileQuery(query, await this.commands.queryOptions()));
    } catch {
      shape = undefined;
    }
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
    await this.redrawWatch(opened, definition, { ...base, selected });
  }

  /** A watch modal's metric or row changed: the view again, with the suggestion for the new pick. */
  private async updateWatch(event: ModalAction): Promise<void> {
    const meta = parseWatchMetadata(event.privateMetadata);
    if (!meta) return;
    let shape: ReturnType<typeof watchable>;
    try {
      shape = watchable(compileQuery(meta.query, await this.commands.queryOptions()));
    } catch {
      shape = undefined;
    }
    if (!shape) return;
    const { definition, ...fields } = shape;
    const form = watchFormFromState(event.values);
    const selected = {
      metric: fields.metrics.includes(form.metric) ? form.metric : (fields.metrics[0] as string),
      on: form.on,
    };
    const base = { ...meta, timezone: this.deps.settings.timezone, ...fields, selected };
    await this.redrawWatch({ id: event.viewId, hash: event.hash }, definition, base);
  }

  /**
   * Reads the rows and the suggestion, then updates the view with them (or with why they could
   * not be read). A newer redraw that landed first wins (`hash_conflict`).
   */
  private async redrawWatch(
    view: { id: string; hash: string },
    definition: ReportDefinition,
    base: Parameters<typeof watchModalView>[0] & { selected: { metric: string; on: string } },
  ): Promise<void> {
    const { client, clock, settings, signal } = this.deps;
    let choices: WatchChoicesState;
    try {
      choices = await watchChoices(definition, base.selected, {
        client,
        now: clock(),
        defaultTimeZone: settings.timezone,
        signal,
      });
    } catch (error) {
      this.deps.logger.warn({ err: toError(error) }, 'watch modal: rows and recent values not read');
      choices = { error: userMessageOf(error) };
    }
    try {
      await this.deps.slack.viewsUpdate(view.id, watchModalView({ ...base, choices }), { hash: view.hash });
    } catch (error) {
      if (error instanceof SlackDeliveryError && error.slackError === 'hash_conflict') return;
      throw error;
    }
  }

  private async submitWatch(submission: ViewSubmission, track: (work: Promise<unknown>) => void): Promise<ViewAnswer> {
    const { store, settings, slack } = this.deps;
    const meta = parseWatchMetadata(submission.privateMetadata);
    if (!meta) return { errors: { [WATCH_BLOCKS.name]: OLD_MODAL } };
    if (!settings.admins.includes(submission.userId)) {
      return { errors: { [WATCH_BLOCKS.name]: 'Only pivotbot admins can save alert rules: ask one of them.' } };
    }
    let shape: ReturnType<typeof watchable>;
    try {
      shape = watchable(compileQuery(meta.query, await this.commands.queryOptions()));
    } catch {
      shape = undefined;
    }
    if (!shape) return { errors: { [WATCH_BLOCKS.name]: 'That query no longer compiles; run it again.' } };
    const verdict = validateWatchForm(watchFormFromState(submission.values), {
      metrics: shape.metrics,
      taken: (name) => store.subscriptions.list().some((s) => s.report === watchId(name)),
      timezone: settings.timezone,
    });
    if (!verdict.ok) return { errors: verdict.errors };
    // One row picked: the watch's query is the answer's narrowed to that row's values.
    const query = verdict.row === undefined ? meta.query : entityQueryOf(shape.definition, verdict.row);
    if (query === undefined) {
      return { errors: { [WATCH_BLOCKS.on]: 'That row cannot be written as a query; watch each row instead.' } };
    }
    await store.subscriptions.add({
      report: watchId(verdict.name),
      channel: meta.channel,
      query,
      watch: verdict.rule,
      createdBy: submission.userId,
    });
    this.deps.logger.info(
      {
        name: verdict.name,
        channel: meta.channel,
        row: verdict.row !== undefined,
        watches: store.subscriptions.list().filter((s) => s.report.startsWith(WATCH_PREFIX)).length,
      },
      'watch saved',
    );
    track(
      slack.ephemeral(
        meta.channel,
        submission.userId,
        noticeMessage(
          `:white_check_mark: Watching \`${verdict.name}\` (\`${query.replace(/`/g, "'")}\`): its incidents open threads in <#${meta.channel}>. \`/pivot alerts\` lists it; \`/pivot unwatch ${verdict.name}\` removes it; \`pivotbot export ${verdict.name}\` prints it as a report file.`,
        ),
      ),
    );
    return {};
  }

  private async submitSchedule(
    submission: ViewSubmission,
    track: (work: Promise<unknown>) => void,
  ): Promise<ViewAnswer> {
    const { store, settings, slack } = this.deps;
    const meta = parseScheduleMetadata(submission.privateMetadata);
    if (!meta) return { errors: { [SCHEDULE_BLOCKS.name]: OLD_MODAL } };
    if (!settings.admins.includes(submission.userId)) {
      return { errors: { [SCHEDULE_BLOCKS.name]: 'Only pivotbot admins can schedule queries: ask one of them.' } };
    }
    const form = scheduleFormFromState(submission.values);
    const verdict = validateScheduleForm(form, {
      query: meta.query,
      taken: (name) => store.subscriptions.list().some((s) => s.report === savedQueryId(name)),
      queryOptions: await this.commands.queryOptions(),
    });
    if (!verdict.ok) return { errors: verdict.errors };
    const { saved } = verdict;
    await store.subscriptions.add({
      report: savedQueryId(saved.name),
      channel: saved.channel,
      query: saved.query,
      ...(saved.at ? { at: saved.at } : {}),
      ...(saved.cron ? { cron: saved.cron } : {}),
      timezone: saved.timezone,
      createdBy: submission.userId,
    });
    this.deps.logger.info(
      { name: saved.name, channel: saved.channel, count: savedQueriesOf(store.subscriptions.list()).length },
      'query saved',
    );
    const when = saved.at ? `every day at ${saved.at}` : `on cron \`${saved.cron}\``;
    track(
      slack.ephemeral(
        meta.origin,
        submission.userId,
        noticeMessage(
          `:white_check_mark: Saved \`${saved.name}\`: <#${saved.channel}> gets it ${when} (${saved.timezone}). \`/pivot schedule\` lists it; \`pivotbot export ${saved.name}\` prints it as a report file.`,
        ),
      ),
    );
    return {};
  }
}

/** The metrics (output keys) and whether there is a breakdown, of an ad-hoc query; undefined for a run command. */
function watchable(
  compiled: ReturnType<typeof compileQuery>,
): { metrics: string[]; byEntity: boolean; understood?: string; definition: ReportDefinition } | undefined {
  if (compiled.kind === 'run') return undefined;
  const { definition } = compiled;
  const { query, description } = definition;
  const key = (f: (typeof query.metrics)[number]) => (typeof f === 'string' ? f : (f.as ?? f.name));
  const dimension = (f: (typeof query.dimensions)[number]) => (typeof f === 'string' ? f : f.name);
  return {
    metrics: query.metrics.map(key),
    byEntity: query.dimensions.some((d) => dimension(d) !== 'date'),
    ...(description ? { understood: description } : {}),
    definition,
  };
}

/** The query a "Schedule this" button carries (`{ reportId: 'adhoc', query }`). */
function queryOfButton(raw: string | undefined): string | undefined {
  try {
    const value = JSON.parse(raw ?? '') as { query?: unknown };
    return typeof value.query === 'string' && value.query.trim() !== '' ? value.query : undefined;
  } catch {
    return undefined;
  }
}
