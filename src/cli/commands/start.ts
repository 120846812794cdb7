import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

/** `pivotbot start`: the Slack bot. */
export function registerStart(program: Command, _io: CliIo): void {
  program
    .command('start')
    .description('start the Slack bot: HTTP mode on PORT, or Socket Mode when SLACK_APP_TOKEN is set')
    .action(() => {
      throw new NotBuiltYetError('start', 'the Slack app issue');
    });
}
