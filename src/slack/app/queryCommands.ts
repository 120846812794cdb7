/**
 * The `/pivot` commands that run something: a query or a report (typed, from the builder, a
 * button, a follow-up in a thread), its CSV, another range, and "why" explanations. Each run is
 * recorded under the request's idempotency key, waits its turn in the work queue, and posts
 * through `delivery/`.
 */
import type { EntityPart } from '../../alerts/index.js';
import { ErrorCode, UserInputError } from '../../core/index.js';
import { deliverRequested, postExplanation, type RunTarget } from '../../delivery/index.js';
import { explainReport } from '../../insights/index.js';
import { compileQuery, QueryError, type QueryOptions, workspaceGlossaryOf } from '../../query/index.js';
import { findReport, type RangeSpec, type ReportDefinition } from '../../reports/index.js';
import { answerMetadata } from '../../slackapi/index.js';
import { type Answers, type CommandContext, type PivotCommandsDeps, runKeyOf } from './answers.js';
import { entityQuery } from './entityQuery.js';

/** How a follow-up's answer says what it ran: the refined query in catalog terms, the reply, what changed. */
export interface FollowUpLine {
  understood: string;
  reply: string;
  changed: string;
}

/** What a result's button asks for: the report (or query) again, maybe another range or its CSV. */
export interface ButtonClick {
  reportId: string;
  query?: string;
  range?: string;
  csv: boolean;
}

/** Runs queries and reports for `/pivot`, buttons, the builder and follow-ups. */
export class QueryCommands {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly answers: Answers,
  ) {}

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
      await this.answers.reportFailure(error, click.query ?? `run ${click.reportId}`, ctx);
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
      await this.answers.reportFailure(error, `why ${text}`, ctx);
    }
  }

  /** `/pivot why <query>`: the query's metrics explained against its comparison (previous period by default). */
  async why(text: string, ctx: CommandContext): Promise<void> {
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
      await this.answers.reportFailure(error, answer.text, ctx);
    }
  }

  /** `why?` in an answer's thread: the explanation of its query, in the thread. Never throws. */
  async explainFollowUp(query: string, ctx: CommandContext): Promise<void> {
    try {
      await this.why(query, ctx);
    } catch (error) {
      await this.answers.reportFailure(error, `why ${query}`, ctx);
    }
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
            ErrorCode.NothingToExplain,
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
      { onWait: (ahead) => void this.answers.tellQueued(ctx, ahead) },
    );
  }

  /**
   * An alert's entity (its key, or its parts) as the report's query narrowed to it, names by their
   * ids (see `entityQuery`), or why it cannot be narrowed. Throws what a look-up throws.
   */
  async entityQuery(
    definition: ReportDefinition,
    entity: string | readonly EntityPart[],
  ): Promise<{ query: string } | { refused: string }> {
    const { client, clock, settings, signal } = this.deps;
    return entityQuery(definition, entity, { client, now: clock(), defaultTimeZone: settings.timezone, signal });
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
      await this.answers.reportFailure(error, text, ctx);
    }
  }

  /** The clock, zone and glossary (with the workspace's words from the reports folder) of a query. */
  async queryOptions(): Promise<QueryOptions> {
    const { glossary } = workspaceGlossaryOf(await this.deps.loadReports());
    return { now: this.deps.clock(), defaultTimeZone: this.deps.settings.timezone, glossary };
  }

  /** Whether `text` compiles as a query (its errors are not wanted: the caller has its own). */
  async compiles(text: string): Promise<boolean> {
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

  async query(text: string, ctx: CommandContext, how: { followUp?: FollowUpLine; csv?: boolean } = {}): Promise<void> {
    const compiled = compileQuery(text, await this.queryOptions());
    // The answer carries its query: a reply in its thread refines it (`applyFollowUp`).
    const post = { metadata: answerMetadata(text) };
    if (compiled.kind === 'run') {
      const report = await this.report(compiled.report.value);
      return this.deliver(
        {
          report,
          ...(compiled.range !== undefined ? { range: compiled.range } : {}),
          // A named report answers with the digest the schedule posts: its "because" lines too.
          explain: true,
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
    await deliverRequested(
      target,
      {
        ...(key ? { key } : {}),
        channel: ctx.channelId,
        requester: ctx.userId,
        ...(command ? { command } : {}),
        ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
      },
      this.deps,
      (work) => this.deps.runs.run(work, { onWait: (ahead) => void this.answers.tellQueued(ctx, ahead) }),
    );
  }
}
