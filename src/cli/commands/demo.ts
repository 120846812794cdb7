import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

/** `pivotbot demo`: sandbox + every report + out/index.html. */
export function registerDemo(program: Command, _io: CliIo): void {
  program
    .command('demo')
    .description('start the sandbox, run every report, write out/ with an index.html preview, exit')
    .action(() => {
      throw new NotBuiltYetError('demo', 'the rendering issue');
    });
}
