import { PivotbotError } from '../../core/index.js';

/** Thrown by a subcommand whose issue has not landed yet; the CLI says so and exits 1. */
export class NotBuiltYetError extends PivotbotError {
  constructor(command: string, issue: string) {
    super('NOT_BUILT_YET', `pivotbot ${command} is not available yet (it arrives with ${issue}).`);
  }
}
