/**
 * The query builder (`/pivot` alone) and "Schedule this": opening them, redrawing the builder as
 * its fields change (views.update with the view's hash), and judging their submissions, whose
 * verdict the receiver puts in Slack's ack. The router (`router.ts`) says which modal is which.
 */
import { toError, userMessageOf } from '../../core/index.js';
import {
  compileQuery,
  type GlossaryTerm,
  savedQueriesOf,
  savedQueryId,
  workspaceGlossaryOf,
} from '../../query/index.js';
import { fitText, SLACK_LIMITS } from '../../render/index.js';
import { SlackDeliveryError } from '../../slackapi/index.js';
import type { ActionView, SlackAction, ViewAnswer, ViewSubmission } from '../receiver/index.js';
import { adminClick } from './adminClick.js';
import type { PivotCommandsDeps } from './answers.js';
import { channelRefusal } from './channelReach.js';
import type { QueryCommands } from './queryCommands.js';
import { queryModalView } from './queryModal.js';
import { fieldsFromState, parseModalMetadata, QUERY_BLOCKS, validateQueryModal } from './queryModalFields.js';
import {
  parseScheduleMetadata,
  SCHEDULE_BLOCKS,
  scheduleFormFromState,
  scheduleModalView,
  validateScheduleForm,
} from './scheduleModal.js';
import { noticeMessage } from './screens/infoMessages.js';

const OLD_MODAL = 'This form is from an older pivotbot; close it and open it again.';

/** How long "Schedule this" waits for Slack to say whether the bot is in the picked channel. */
const CHANNEL_CHECK_MS = 1_500;

export class ModalActions {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly queries: QueryCommands,
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
  async update(view: ActionView): Promise<void> {
    const meta = parseModalMetadata(view.privateMetadata);
    if (!meta) return;
    const redrawn = queryModalView({
      ...meta,
      terms: await this.terms(),
      fields: fieldsFromState(view.values),
    });
    try {
      await this.deps.slack.viewsUpdate(view.id, redrawn, { hash: view.hash });
    } catch (error) {
      if (error instanceof SlackDeliveryError && error.slackError === 'hash_conflict') {
        this.deps.logger.debug({ viewId: view.id }, 'modal changed again before its redraw; skipped');
        return;
      }
      throw error;
    }
  }

  async submitQuery(submission: ViewSubmission, track: (work: Promise<unknown>) => void): Promise<ViewAnswer> {
    const meta = parseModalMetadata(submission.privateMetadata);
    if (!meta) return { errors: { [QUERY_BLOCKS.metrics]: OLD_MODAL } };
    const verdict = validateQueryModal(fieldsFromState(submission.values), await this.queries.queryOptions());
    if (!verdict.ok) return { errors: verdict.errors };
    // Run exactly as typed; the view id keys the run, so a submission Slack sends twice runs once.
    track(
      this.queries.runSubmitted(verdict.query, {
        userId: submission.userId,
        channelId: meta.channel,
        ...(meta.responseUrl ? { responseUrl: meta.responseUrl } : {}),
        triggerId: `view:${submission.viewId}`,
      }),
    );
    return {};
  }

  /** "Schedule this": refused to non-admins (as subscriptions are); otherwise the schedule modal. */
  async scheduleThis(event: SlackAction): Promise<void> {
    const { slack, settings } = this.deps;
    const admitted = await adminClick(this.deps, event, 'schedule queries');
    if (!admitted) return;
    const { answer, query, channelId } = admitted;
    let understood: string | undefined;
    try {
      const compiled = compileQuery(query, await this.queries.queryOptions());
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

  async submitSchedule(submission: ViewSubmission, track: (work: Promise<unknown>) => void): Promise<ViewAnswer> {
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
      queryOptions: await this.queries.queryOptions(),
    });
    if (!verdict.ok) return { errors: verdict.errors };
    const { saved } = verdict;
    // The picker offers every channel the person sees: one the bot is not in is refused here, with
    // the fix, within the submission's answer time (Slack waits 3 s).
    const unreachable = await channelRefusal(slack, saved.channel, submission.userId, this.deps.logger, {
      signal: AbortSignal.timeout(CHANNEL_CHECK_MS),
      style: 'plain',
    });
    if (unreachable) {
      return { errors: { [SCHEDULE_BLOCKS.channel]: fitText(unreachable, SLACK_LIMITS.inputError) } };
    }
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
