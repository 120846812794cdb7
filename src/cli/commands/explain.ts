import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { ErrorCode, UserInputError } from '../../core/index.js';
import { explain, explanationJson, formatExplanation, leafCsvSource, parseLeafTable } from '../../explain/index.js';
import { explainReport } from '../../insights/index.js';
import { compileQuery, formatQueryError, loadWorkspaceGlossary, QueryError } from '../../query/index.js';
import { parseCsv } from '../../reporting/index.js';
import { findReport, loadReports, type RangeSpec, type ReportDefinition } from '../../reports/index.js';
import { cliLogger, openReporting } from '../openReporting.js';
import { type CliIo, CommandExit } from './io.js';

interface ExplainFlags {
  leaves?: string;
  dimensions?: string;
  metric: string;
  budget: string;
  scale: string;
  minVolume: string;
  counts?: string;
  amounts?: string;
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
    .option(
      '--counts <parts>',
      'which measure parts are counts (installs, clicks…): num, den or num,den (an additive value is num); gives them a noise model and refuses negative or fractional values',
    )
    .option('--amounts <parts>', 'which measure parts are amounts of money (spend): num, den or num,den')
    .option('--json', 'print {metric,current,baseline,change,diffuse,queries,partial,drivers:[…]}')
    .action(async (query: string | undefined, flags: ExplainFlags) => {
      if (query !== undefined && flags.leaves !== undefined)
        throw new UserInputError(
          ErrorCode.CliExplainBoth,
          'pivotbot explain: give either a query or --leaves FILE.csv, not both.',
        );
      if (flags.leaves === undefined && query !== undefined) return explainQueryCommand(query, flags, io);
      if (flags.leaves === undefined)
        throw new UserInputError(
          ErrorCode.CliExplainSource,
          'pivotbot explain: give a query ("installs yesterday vs same day last week") or --leaves FILE.csv.',
        );
      const budget = wholeNumber('--budget', flags.budget);
      const scale = Number(flags.scale);
      if (!Number.isFinite(scale) || scale <= 0)
        throw new UserInputError(
          ErrorCode.CliExplainScale,
          `pivotbot explain: --scale "${flags.scale}" must be a positive number.`,
        );
      const minVolume = Number(flags.minVolume);
      if (!Number.isFinite(minVolume) || minVolume < 0)
        throw new UserInputError(
          ErrorCode.CliExplainMinVolume,
          `pivotbot explain: --min-volume "${flags.minVolume}" must be 0 or more.`,
        );
      const dimensions = flags.dimensions
        ?.split(',')
        .map((d) => d.trim())
        .filter((d) => d !== '');
      const table = parseLeafTable(parseCsv((await readText(flags.leaves)).replace(/^\uFEFF/, '')), {
        name: flags.leaves,
        ...(dimensions === undefined || dimensions.length === 0 ? {} : { dimensions }),
        ...(flags.counts === undefined ? {} : { counts: measureParts('--counts', flags.counts) }),
        ...(flags.amounts === undefined ? {} : { amounts: measureParts('--amounts', flags.amounts) }),
      });
      if (table.ignored.length > 0)
        io.err(
          `pivotbot explain: numeric column(s) ${table.ignored.join(', ')} left out of the dimensions; name them with --dimensions to explore them\n`,
        );
      const explanation = await explain(
        {
          metric: flags.metric,
          kind: table.kind,
          budget,
          minVolume,
          ...(table.kind === 'ratio' ? { scale } : {}),
          ...(table.noise === undefined ? {} : { noise: table.noise }),
        },
        leafCsvSource(table),
      );
      io.out(
        flags.json ? `${JSON.stringify(explanationJson(explanation), null, 2)}\n` : formatExplanation(explanation),
      );
    });
}

/**
 * `num,den` → the parts (`--counts`, `--amounts`); anything else is refused with what is allowed.
 * A flag's mistake, not the file's: its own code, not the leaf table's.
 */
export function measureParts(flag: string, text: string): ('num' | 'den')[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const wrong = parts.find((p) => p !== 'num' && p !== 'den');
  if (wrong !== undefined || parts.length === 0)
    throw new UserInputError(
      ErrorCode.CliExplainParts,
      `pivotbot explain: ${flag} "${text}" names no measure part${wrong === undefined ? '' : ` ("${wrong}" is not one)`}: give num, den or num,den — num is an additive table's value or a ratio's numerator (current_num, baseline_num), den a ratio's denominator.`,
    );
  return parts as ('num' | 'den')[];
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new UserInputError(ErrorCode.CliExplainLeavesUnreadable, `pivotbot explain: cannot read ${path}: ${why}.`);
  }
}

function wholeNumber(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 10_000)
    throw new UserInputError(
      ErrorCode.CliExplainBudget,
      `pivotbot explain: ${flag} "${text}" must be a whole number 1-10000.`,
    );
  return n;
}

/**
 * `pivotbot explain "<query>"`: the query's metrics explained through the Reporting Service (the
 * embedded sandbox without credentials), against the query's comparison or the previous period.
 * One metric prints one JSON object; several print a list of them.
 */
async function explainQueryCommand(text: string, flags: ExplainFlags, io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const now = new Date();
  const workspace = await loadWorkspaceGlossary(config.reportsDir);
  let compiled: ReturnType<typeof compileQuery>;
  try {
    compiled = compileQuery(text.replace(/^\s*why\s+/i, ''), {
      now,
      defaultTimeZone: config.timezone,
      glossary: workspace.glossary,
    });
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    io.err(`${formatQueryError(text, error)}\n`);
    throw new CommandExit(1);
  }
  let report: { id: string; definition: ReportDefinition };
  let range: RangeSpec | undefined;
  if (compiled.kind === 'run') {
    const loaded = await loadReports(config.reportsDir, { now, defaultTimeZone: config.timezone });
    report = findReport(loaded, compiled.report.value);
    range = compiled.range;
  } else if (compiled.kind === 'postbacks') {
    throw new UserInputError(
      ErrorCode.CliExplainPostbacks,
      'pivotbot explain: postback distributions cannot be explained.',
    );
  } else report = { id: 'query', definition: compiled.definition };
  const budget = wholeNumber('--budget', flags.budget);
  const definition: ReportDefinition = {
    ...report.definition,
    present: { ...report.definition.present, explain: { ...(report.definition.present.explain || {}), budget } },
  };
  const logger = cliLogger(config, io);
  const reporting = await openReporting(config, logger);
  try {
    const explained = await explainReport(
      { report: { id: report.id, definition }, asOf: now, ...(range !== undefined ? { range } : {}) },
      { client: reporting.client, logger, defaultTimeZone: config.timezone },
    );
    for (const skipped of explained.skipped)
      io.err(`pivotbot explain: ${skipped.label} not explained: ${skipped.reason}\n`);
    if (explained.metrics.length === 0) throw new CommandExit(1);
    if (flags.json) {
      const objects = explained.metrics.map((m) => explanationJson(m.explanation));
      io.out(`${JSON.stringify(objects.length === 1 ? objects[0] : objects, null, 2)}\n`);
    } else {
      io.out(`${explained.periods}\n\n${explained.metrics.map((m) => formatExplanation(m.explanation)).join('\n')}`);
    }
  } finally {
    await reporting.close();
  }
}
