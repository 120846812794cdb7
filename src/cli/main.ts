import { Command, CommanderError } from 'commander';
import { PivotbotError } from '../core/index.js';

/** Thrown by a subcommand whose issue has not landed yet; the CLI says so and exits 1. */
class NotBuiltYetError extends PivotbotError {
  constructor(command: string, issue: string) {
    super('NOT_BUILT_YET', `pivotbot ${command} is not available yet (it arrives with ${issue}).`);
  }
}

const notYet = (command: string, issue: string) => () => {
  throw new NotBuiltYetError(command, issue);
};

/** Builds the `pivotbot` command tree; `io` lets tests capture output. */
export function buildProgram(io: { out: (s: string) => void; err: (s: string) => void }): Command {
  const program = new Command('pivotbot')
    .description('Slack reporting bot for advertising teams, over the Reporting Service GraphQL API.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run "pivotbot --help" for usage)');

  program
    .command('start')
    .description('start the Slack bot: HTTP mode on PORT, or Socket Mode when SLACK_APP_TOKEN is set')
    .action(notYet('start', 'the Slack app issue'));
  program
    .command('sandbox')
    .description('serve the embedded Reporting Service (OAuth token, GraphQL, signed CSV downloads)')
    .option('--port <port>', 'port on 127.0.0.1 (0 picks a free one)', '4010')
    .option('--scale <scale>', 'data set size: small | medium | large', 'small')
    .option('--seed <n>', 'seed of the synthetic data', '1')
    .option('--client-id <id>', 'OAuth client id', 'sandbox')
    .option('--client-secret <secret>', 'OAuth client secret', 'sandbox-secret')
    .action(notYet('sandbox', 'the sandbox issue'));
  program
    .command('run <report>')
    .description('run one named report once and write its results (or post them with --post)')
    .option('--out <dir>', 'output folder', 'out')
    .option('--post', 'post to Slack instead of writing files')
    .action(notYet('run', 'the reports issue'));
  program
    .command('query <query>')
    .description('run an ad-hoc query in the /pivot language and print a table')
    .action(notYet('query', 'the reports issue'));
  program
    .command('validate [dir]')
    .description('check every report definition; exit 1 with file:line messages on any error')
    .action(notYet('validate', 'the reports issue'));
  program
    .command('demo')
    .description('start the sandbox, run every report, write out/ with an index.html preview, exit')
    .action(notYet('demo', 'the rendering issue'));
  return program;
}

/**
 * Runs the CLI and resolves to the process exit code; never throws.
 *
 * @example process.exitCode = await main(process.argv);
 */
export async function main(
  argv: readonly string[],
  io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) },
): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    if (error instanceof PivotbotError) {
      io.err(`${error.message}\n`);
      return 1;
    }
    io.err(`pivotbot: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
