import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { ErrorCode, PivotbotError, UserInputError } from '../../core/index.js';
import { findReport, loadReports } from '../../reports/index.js';
import { listSchedules, type ScheduleSpec } from '../../scheduler/index.js';
import { decodeStoreText, type Subscription } from '../../store/index.js';
import { isoInZone, nextFires } from '../../time/index.js';
import type { CliIo } from './io.js';

interface ScheduleFlags {
  from?: string;
  count: string;
  json?: boolean;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** `pivotbot schedule [report]`: the next fire instants of every schedule, in its zone and in UTC. */
export function registerSchedule(program: Command, io: CliIo): void {
  program
    .command('schedule [report]')
    .description(
      "the next fire instants of every schedule (reports and the store's subscriptions), in its zone and UTC",
    )
    .option('--from <instant>', 'list fires at or after this ISO instant (with Z or an offset); default now')
    .option('--count <n>', 'fires per schedule', '5')
    .option('--json', 'print [{"report","channel","source","timezone","fires":[ISO UTC…]}]')
    .action(async (reportId: string | undefined, flags: ScheduleFlags) => {
      const from = parseFrom(flags.from);
      const count = parseCount(flags.count);
      const config = loadConfig(io.env);
      const loaded = await loadReports(config.reportsDir, { now: new Date(), defaultTimeZone: config.timezone });
      const only = reportId === undefined ? undefined : findReport(loaded, reportId).id;
      const subscriptions = await readSubscriptions(config.storePath, io);
      const { schedules, problems } = listSchedules(loaded, subscriptions, { timezone: config.timezone });
      const shown = schedules.filter((s) => only === undefined || s.report === only);
      // Fires at `from` itself count: nextFires is strictly after its argument.
      const after = new Date(from.getTime() - 1);
      const rows = shown.map((spec) => ({ spec, fires: nextFires(spec, after, count) }));

      for (const problem of problems.filter((p) => only === undefined || p.report === only)) {
        const where = problem.channel ? `${problem.report} → ${problem.channel}` : problem.report;
        io.err(`not scheduled: ${where} (${problem.source}): ${problem.message}\n`);
      }
      if (flags.json) {
        const json = rows.map(({ spec, fires }) => ({
          report: spec.report,
          channel: spec.channel,
          source: spec.source,
          timezone: spec.timezone,
          fires: fires.map((f) => f.toISOString()),
        }));
        io.out(`${JSON.stringify(json, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) {
        io.out(only ? `Report "${only}" has no schedule with a channel to post to.\n` : 'No schedules.\n');
        return;
      }
      for (const { spec, fires } of rows)
        io.out(`${describe(spec)}\n${fires.map((f) => fireLine(f, spec)).join('')}\n`);
    });
}

function parseFrom(text: string | undefined): Date {
  if (text === undefined) return new Date();
  const at = INSTANT.test(text.trim()) ? new Date(text.trim()) : undefined;
  if (!at || Number.isNaN(at.getTime())) {
    throw new UserInputError(
      ErrorCode.CliFromInvalid,
      `pivotbot schedule: --from "${text}" is not an ISO instant; write it with Z or an offset, e.g. 2026-03-08T00:00:00Z or 2026-03-08T00:00-05:00.`,
    );
  }
  return at;
}

function parseCount(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1_000) {
    throw new UserInputError(
      ErrorCode.CliCountInvalid,
      `pivotbot schedule: --count "${text}" must be a whole number 1-1000.`,
    );
  }
  return n;
}

/**
 * The store's subscriptions, read without taking the store's lock: the bot may be running and
 * holding it, and its writes replace the file whole, so a plain read sees a complete version.
 * Nothing is written. A missing file means no subscriptions; an unreadable one is said on stderr.
 */
async function readSubscriptions(path: string, io: CliIo): Promise<readonly Subscription[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    io.err(
      `pivotbot schedule: cannot read the store ${path} (${(error as Error).message}); subscriptions are not shown\n`,
    );
    return [];
  }
  try {
    return decodeStoreText(text, path).data.subscriptions;
  } catch (error) {
    if (!(error instanceof PivotbotError)) throw error;
    io.err(`pivotbot schedule: ${error.message}; subscriptions are not shown\n`);
    return [];
  }
}

function describe(spec: ScheduleSpec): string {
  const days = Array.isArray(spec.days) ? spec.days.join(', ') : (spec.days ?? 'daily');
  const timing = spec.cron !== undefined ? `cron "${spec.cron}"` : `${spec.at} ${days}`;
  const source = spec.source === 'subscription' ? `subscription ${spec.subscriptionId}` : 'report';
  return `${spec.report} → ${spec.channel} (${source}): ${timing}, ${spec.timezone}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function fireLine(fire: Date, spec: ScheduleSpec): string {
  const local = isoInZone(fire.getTime(), spec.timezone);
  const weekday = WEEKDAYS[new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay()];
  return `  ${weekday} ${local.replace('T', ' ')}   ${fire.toISOString()}\n`;
}
