/**
 * The `/pivot` commands that only read: `help`, `list`, `show`, `status`, `history`. Each answers
 * the asker privately.
 */
import { workspaceGlossaryOf } from '../../query/index.js';
import type { Answers, CommandContext, PivotCommandsDeps } from './answers.js';
import type { SlashCommand } from './parseSlashCommand.js';
import type { QueryCommands } from './queryCommands.js';
import { helpTopicMessage } from './screens/helpTopicMessage.js';
import { helpMessage, listMessage, showMessage, statusMessage } from './screens/infoMessages.js';
import { historyMessage } from './screens/scheduleMessages.js';

type Command<K extends SlashCommand['kind']> = Extract<SlashCommand, { kind: K }>;

/** What `/pivot` tells about reports, runs and jobs. */
export class InfoCommands {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly answers: Answers,
    private readonly queries: QueryCommands,
  ) {}

  /** `/pivot help [topic [page]]`. */
  async help(command: Command<'help'>, ctx: CommandContext): Promise<void> {
    const { settings } = this.deps;
    return this.answers.tell(
      ctx,
      command.topic
        ? helpTopicMessage(
            command.topic,
            command.page ?? 1,
            workspaceGlossaryOf(await this.deps.loadReports()).glossary,
          )
        : helpMessage(settings),
    );
  }

  /** `/pivot list`. */
  async list(ctx: CommandContext): Promise<void> {
    return this.answers.tell(ctx, listMessage(await this.deps.loadReports(), this.deps.settings.timezone));
  }

  /** `/pivot show <report>`; "show spend by country" names no report: when the words read as a query, it is answered. */
  async show(command: Command<'show'>, text: string, ctx: CommandContext): Promise<void> {
    const { store, settings } = this.deps;
    const report = await this.queries.report(command.report).catch(async (error: unknown) => {
      if (await this.queries.compiles(text)) return undefined;
      throw error;
    });
    if (!report) return this.queries.query(text, ctx);
    return this.answers.tell(ctx, showMessage(report, store.subscriptions.listByReport(report.id), settings.timezone));
  }

  /** `/pivot status <job>`: the stored job, with the service's live status when it answers. */
  async status(command: Command<'status'>, ctx: CommandContext): Promise<void> {
    return this.answers.tell(
      ctx,
      statusMessage(this.deps.store.jobs.get(command.jobId), command.jobId, await this.liveStatus(command.jobId)),
    );
  }

  /** `/pivot history <report>`: its last 10 runs. */
  async history(command: Command<'history'>, ctx: CommandContext): Promise<void> {
    const { store } = this.deps;
    const report = await this.queries.report(command.report);
    return this.answers.tell(
      ctx,
      historyMessage(
        { id: report.id, title: report.definition.title },
        store.runs.listByReport(report.id, 10),
        store.incidents,
      ),
    );
  }

  private async liveStatus(jobId: string): Promise<string | undefined> {
    try {
      return (await this.deps.client.asyncPivot(jobId)).status;
    } catch {
      return undefined;
    }
  }
}
