import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

/** `pivotbot validate [dir]`: checks every report definition. */
export function registerValidate(program: Command, _io: CliIo): void {
  program
    .command('validate [dir]')
    .description('check every report definition; exit 1 with file:line messages on any error')
    .action(() => {
      throw new NotBuiltYetError('validate', 'the reports issue');
    });
}
