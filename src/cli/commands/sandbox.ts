import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

/** `pivotbot sandbox`: the embedded Reporting Service alone. */
export function registerSandbox(program: Command, _io: CliIo): void {
  program
    .command('sandbox')
    .description('serve the embedded Reporting Service (OAuth token, GraphQL, signed CSV downloads)')
    .option('--port <port>', 'port on 127.0.0.1 (0 picks a free one)', '4010')
    .option('--scale <scale>', 'data set size: small | medium | large', 'small')
    .option('--seed <n>', 'seed of the synthetic data', '1')
    .option('--client-id <id>', 'OAuth client id', 'sandbox')
    .option('--client-secret <secret>', 'OAuth client secret', 'sandbox-secret')
    .action(() => {
      throw new NotBuiltYetError('sandbox', 'the sandbox issue');
    });
}
