import { Command, CommanderError } from 'commander';
import { loadEnvFile } from '../config/index.js';
import { PivotbotError } from '../core/index.js';
import { registerBacktest } from './commands/backtest.js';
import { registerDemo } from './commands/demo.js';
import { registerExplain } from './commands/explain.js';
import { registerExport } from './commands/export.js';
import { type CliIo, CommandExit } from './commands/io.js';
import { registerMigrateStore } from './commands/migrateStore.js';
import { registerQuery } from './commands/query.js';
import { registerRun } from './commands/run.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSchedule } from './commands/schedule.js';
import { registerStart } from './commands/start.js';
import { registerValidate } from './commands/validate.js';

/** Builds the `pivotbot` command tree; each subcommand lives in `commands/<name>.ts`. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('pivotbot')
    .description('Slack reporting bot for advertising teams, over the Reporting Service GraphQL API.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run "pivotbot --help" for usage)');
  for (const register of [
    registerStart,
    registerSandbox,
    registerRun,
    registerQuery,
    registerValidate,
    registerSchedule,
    registerExport,
    registerExplain,
    registerBacktest,
    registerDemo,
    registerMigrateStore,
  ]) {
    register(program, io);
  }
  for (const command of program.commands) command.exitOverride();
  return program;
}

/**
 * Runs the CLI and resolves to the process exit code; never throws. A command fails by throwing a
 * `PivotbotError` (printed) or a `CommandExit` (already printed). Run on the process's own
 * environment, it first reads `.env` from the working folder, or the file `PIVOTBOT_ENV_FILE` names,
 * or none with `PIVOTBOT_ENV_FILE=none` (see `loadEnvFile`: the environment wins); a caller's own
 * `io.env` (tests) is left as it is.
 *
 * @example process.exitCode = await main(process.argv);
 */
export async function main(
  argv: readonly string[],
  io: CliIo = {
    out: (s) => void process.stdout.write(s),
    err: (s) => void process.stderr.write(s),
    env: process.env,
  },
): Promise<number> {
  const program = buildProgram(io);
  try {
    if (io.env === process.env) loadEnvFile(io.env);
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommandExit) return error.code;
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    if (error instanceof PivotbotError) {
      io.err(`${error.message}\n`);
      return 1;
    }
    io.err(`pivotbot: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
