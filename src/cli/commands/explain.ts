import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UserInputError } from '../../core/index.js';
import { explain, explanationJson, formatExplanation, leafCsvSource, parseLeafTable } from '../../explain/index.js';
import { parseCsv } from '../../reporting/index.js';
import type { CliIo } from './io.js';

interface ExplainFlags {
  leaves?: string;
  dimensions?: string;
  metric: string;
  budget: string;
  scale: string;
  minVolume: string;
  json?: boolean;
}

/**
 * `pivotbot explain --leaves FILE.csv`: why a metric moved, over a leaf table. The `[query]`
 * argument is the seam for the Reporting Service form (`pivotbot explain "<query>"`), which plugs
 * in where the source is chosen below.
 */
export function registerExplain(program: Command, io: CliIo): void {
  program
    .command('explain [query]')
    .description('why a metric moved: the segments that drove the change, ranked, with mix and rate for ratios')
    .option(
      '--leaves <file>',
      'a leaf table (CSV): dimension columns, then current,baseline or current_num,current_den,baseline_num,baseline_den',
    )
    .option('--dimensions <list>', 'comma-separated dimension columns to explore (default: every non-numeric column)')
    .option('--metric <name>', "the metric's name in the output", 'value')
    .option('--budget <n>', 'most group-by queries to ask', '24')
    .option('--scale <n>', 'ratio multiplier, e.g. 1000 for cpm', '1')
    .option('--min-volume <n>', 'below this baseline + current volume (den, or |value|) name no driver', '0')
    .option('--json', 'print {metric,current,baseline,change,diffuse,queries,partial,drivers:[…]}')
    .action(async (query: string | undefined, flags: ExplainFlags) => {
      if (query !== undefined && flags.leaves !== undefined)
        throw new UserInputError(
          'CLI_EXPLAIN_BOTH',
          'pivotbot explain: give either a query or --leaves FILE.csv, not both.',
        );
      if (flags.leaves === undefined)
        throw new UserInputError(
          'CLI_EXPLAIN_SOURCE',
          'pivotbot explain: give --leaves FILE.csv (a leaf table to explain).',
        );
      const budget = wholeNumber('--budget', flags.budget);
      const scale = Number(flags.scale);
      if (!Number.isFinite(scale) || scale <= 0)
        throw new UserInputError(
          'CLI_EXPLAIN_SCALE',
          `pivotbot explain: --scale "${flags.scale}" must be a positive number.`,
        );
      const minVolume = Number(flags.minVolume);
      if (!Number.isFinite(minVolume) || minVolume < 0)
        throw new UserInputError(
          'CLI_EXPLAIN_MIN_VOLUME',
          `pivotbot explain: --min-volume "${flags.minVolume}" must be 0 or more.`,
        );
      const dimensions = flags.dimensions
        ?.split(',')
        .map((d) => d.trim())
        .filter((d) => d !== '');
      const table = parseLeafTable(parseCsv((await readText(flags.leaves)).replace(/^\uFEFF/, '')), {
        name: flags.leaves,
        ...(dimensions === undefined || dimensions.length === 0 ? {} : { dimensions }),
      });
      if (table.ignored.length > 0)
        io.err(
          `pivotbot explain: numeric column(s) ${table.ignored.join(', ')} left out of the dimensions; name them with --dimensions to explore them\n`,
        );
      const explanation = await explain(
        { metric: flags.metric, kind: table.kind, budget, minVolume, ...(table.kind === 'ratio' ? { scale } : {}) },
        leafCsvSource(table),
      );
      io.out(
        flags.json ? `${JSON.stringify(explanationJson(explanation), null, 2)}\n` : formatExplanation(explanation),
      );
    });
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new UserInputError('CLI_EXPLAIN_LEAVES_UNREADABLE', `pivotbot explain: cannot read ${path}: ${why}.`);
  }
}

function wholeNumber(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 10_000)
    throw new UserInputError(
      'CLI_EXPLAIN_BUDGET',
      `pivotbot explain: ${flag} "${text}" must be a whole number 1-10000.`,
    );
  return n;
}
