import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { createLogger, ErrorCode, UserInputError } from '../../core/index.js';
import { isPostgresUrl, migrateStoreFile, redactUrl } from '../../store/index.js';
import { type CliIo, CommandExit } from './io.js';

interface MigrateStoreFlags {
  from: string;
  to?: string;
}

/** `pivotbot migrate-store --from data/pivotbot.json --to postgres://…`: moves a JSON store into PostgreSQL. */
export function registerMigrateStore(program: Command, io: CliIo): void {
  program
    .command('migrate-store')
    .description('copy a JSON store file into a PostgreSQL store (idempotent), verified by counts per collection')
    .option('--from <file>', 'the JSON store file', 'data/pivotbot.json')
    .option('--to <url>', 'postgres://user:password@host:5432/database (default: PIVOTBOT_STORE when it is one)')
    .action(async (flags: MigrateStoreFlags) => {
      const config = loadConfig(io.env);
      const to = flags.to ?? (isPostgresUrl(config.storePath) ? config.storePath : undefined);
      if (to === undefined || !isPostgresUrl(to)) {
        throw new UserInputError(
          ErrorCode.MigrateStoreTarget,
          `--to must be a postgres:// URL${to === undefined ? '' : ` (got "${redactUrl(to)}")`}, or set PIVOTBOT_STORE to one.`,
        );
      }
      const secrets = [new URL(to).password].filter((p) => p !== '').map(decodeURIComponent);
      const logger = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, secrets });
      const { counts, missing, fromVersion } = await migrateStoreFile({ from: flags.from, to, logger });
      io.out(`${flags.from} (store version ${fromVersion}) → ${redactUrl(to)}\n\n`);
      io.out(
        `${'collection'.padEnd(18)}${'in file'.padStart(9)}${'copied'.padStart(9)}${'in database'.padStart(13)}\n`,
      );
      for (const [collection, c] of Object.entries(counts)) {
        io.out(
          `${collection.padEnd(18)}${String(c.source).padStart(9)}${String(c.copied).padStart(9)}${String(c.present).padStart(13)}\n`,
        );
      }
      if (missing.length > 0) {
        io.err(
          `\npivotbot migrate-store: not every record is in the database (${missing.join(', ')}); nothing was removed from ${flags.from}.\n`,
        );
        throw new CommandExit(1);
      }
      const copied = Object.values(counts).reduce((n, c) => n + c.copied, 0);
      io.out(
        copied === 0
          ? '\nNothing to copy: every record was already in the database.\n'
          : `\nCopied ${copied} record(s); every record of the file is in the database.\n`,
      );
    });
}
