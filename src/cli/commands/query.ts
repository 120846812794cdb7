import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

/** `pivotbot query "<query>"`: the slash command's language in a terminal. */
export function registerQuery(program: Command, _io: CliIo): void {
  program
    .command('query <query>')
    .description('run an ad-hoc query in the /pivot language and print a table')
    .action(() => {
      throw new NotBuiltYetError('query', 'the reports issue');
    });
}
