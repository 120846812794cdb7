/**
 * The handlers behind pivotbot's Slack input, grouped by what they do. Which input reaches which
 * handler is decided in one place, the router (`router.ts`); a handler parses what it was given,
 * calls the core (`query/`, `reports/`, `delivery/`, the store) and answers.
 */
import { AdminCommands } from './adminCommands.js';
import { Answers, type PivotCommandsDeps } from './answers.js';
import { BacktestCommands } from './backtestCommands.js';
import { InfoCommands } from './infoCommands.js';
import { ModalActions } from './modalActions.js';
import { QueryCommands } from './queryCommands.js';
import { WatchActions } from './watchActions.js';

export type { CommandContext, PivotCommandsDeps } from './answers.js';

/** `/pivot`'s subcommands, the buttons under answers, and the modals, over one set of dependencies. */
export class PivotCommands {
  /** Private answers, "queued" notes and failures. */
  readonly answers: Answers;
  /** Queries, reports, CSVs, ranges and explanations. */
  readonly queries: QueryCommands;
  /** `help`, `list`, `show`, `status`, `history`. */
  readonly info: InfoCommands;
  /** Subscriptions and watches (admins). */
  readonly admin: AdminCommands;
  /** The query builder and "Schedule this". */
  readonly builder: ModalActions;
  /** "Watch this". */
  readonly watches: WatchActions;
  /** `/pivot backtest` and the Watch-this modal's preview. */
  readonly backtests: BacktestCommands;

  constructor(readonly deps: PivotCommandsDeps) {
    this.answers = new Answers(deps);
    this.queries = new QueryCommands(deps, this.answers);
    this.info = new InfoCommands(deps, this.answers, this.queries);
    this.admin = new AdminCommands(deps, this.answers, this.queries);
    this.builder = new ModalActions(deps, this.queries);
    this.backtests = new BacktestCommands(deps, this.answers);
    this.watches = new WatchActions(deps, this.queries, this.backtests);
  }
}
