import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { didYouMean, ErrorCode, PivotbotError, silentLogger, suggest, UserInputError } from '../../core/index.js';
import { savedName, savedQueriesOf, savedQueryYaml, watchesOf, workspaceGlossaryOf } from '../../query/index.js';
import { loadReports } from '../../reports/index.js';
import { decodeStoreText, openStore, type Subscription } from '../../store/index.js';
import type { CliIo } from './io.js';

/** `pivotbot export <name>`: a saved query ("Schedule this") printed as a report definition (YAML). */
export function registerExport(program: Command, io: CliIo): void {
  program
    .command('export <name>')
    .description(
      'print a saved query (Slack\'s "Schedule this") or a watch ("Watch this") as a report definition, for reports/<name>.yaml',
    )
    .action(async (name: string) => {
      const config = loadConfig(io.env);
      const subscriptions = await readSubscriptions(config.storePath);
      const saved = [...savedQueriesOf(subscriptions), ...watchesOf(subscriptions)];
      const wanted = name.replace(/^(saved|watch)-/, '');
      const found = saved.find((s) => savedName(s.report) === wanted);
      if (!found) {
        const names = saved.map((s) => savedName(s.report));
        throw new UserInputError(
          ErrorCode.SavedQueryNotFound,
          names.length === 0
            ? `pivotbot export: no saved queries in the store ${config.storePath.startsWith('postgres') ? '(PostgreSQL)' : config.storePath}; save one with "Schedule this" under a result in Slack.`
            : `pivotbot export: no saved query "${name}".${didYouMean(suggest(name, names))} Saved: ${names.join(', ')}.`,
        );
      }
      // The workspace's own words (reports/glossary.yaml) compile the query as the bot does.
      const loaded = await loadReports(config.reportsDir, { now: new Date(), defaultTimeZone: config.timezone });
      io.out(
        savedQueryYaml(found, {
          now: new Date(),
          defaultTimeZone: config.timezone,
          glossary: workspaceGlossaryOf(loaded).glossary,
        }),
      );
    });
}

/**
 * The store's subscriptions, without taking the file store's lock (the bot may hold it; its
 * writes replace the file whole, so a plain read sees a complete version). A PostgreSQL store is
 * opened and closed: replicas share it.
 */
async function readSubscriptions(path: string): Promise<readonly Subscription[]> {
  if (/^postgres(ql)?:\/\//.test(path)) {
    const store = await openStore({ path, logger: silentLogger() });
    try {
      return store.subscriptions.list();
    } finally {
      await store.close();
    }
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new PivotbotError(
      ErrorCode.StoreUnreadable,
      `pivotbot export: cannot read the store ${path}: ${(error as Error).message}`,
    );
  }
  return decodeStoreText(text, path).data.subscriptions;
}
