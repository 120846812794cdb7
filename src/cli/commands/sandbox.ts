import type { Command } from 'commander';
import { type CliIo, CommandExit } from './io.js';

/** `pivotbot sandbox`: the embedded Reporting Service alone, until SIGINT or SIGTERM. */
export function registerSandbox(program: Command, io: CliIo): void {
  program
    .command('sandbox')
    .description('serve the embedded Reporting Service (OAuth token, GraphQL, signed CSV downloads)')
    .option('--port <port>', 'port on 127.0.0.1 (0 picks a free one)', '4010')
    .option('--scale <scale>', 'data set size: small | medium | large', 'small')
    .option('--seed <n>', 'seed of the synthetic data', '1')
    .option('--client-id <id>', 'OAuth client id', 'sandbox')
    .option('--client-secret <secret>', 'OAuth client secret', 'sandbox-secret')
    .option(
      '--faults <json>',
      'faults from the start, e.g. \'{"http5xxRate":0.2,"latencyMs":300}\' (change them later with PUT /sandbox/faults)',
    )
    .option(
      '--plant <json>',
      'planted causes, one or a list: \'{"where":{"countryCode":"BR"},"metric":"installs","factor":0.4,"days":"yesterday"}\' (replace them with PUT /sandbox/plants)',
    )
    .action(async (options: Record<string, string>) => {
      // Loaded here: DuckDB and the GraphQL server cost every other command ~0.3 s of start-up.
      const { runSandboxCommand } = await import('../../sandbox/index.js');
      const code = await runSandboxCommand(options, io);
      if (code !== 0) throw new CommandExit(code);
    });
}
