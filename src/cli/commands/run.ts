import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

/** `pivotbot run <report>`: one named report, once. */
export function registerRun(program: Command, _io: CliIo): void {
  program
    .command('run <report>')
    .description('run one named report once and write its results (or post them with --post)')
    .option('--out <dir>', 'output folder', 'out')
    .option('--post', 'post to Slack instead of writing files')
    .action(() => {
      throw new NotBuiltYetError('run', 'the reports issue');
    });
}
