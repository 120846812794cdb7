/**
 * bench/cron: our fire times (`src/time/fireTimes.ts`) against `cron-parser`, the parser
 * node-schedule uses, which the scheduler does not (docs/scheduling.md, "Why not node-schedule's
 * cron parser"). Two cases where the answers differ, then the time of the scheduler's two calls:
 * the next five fires of a weekday cron (every schedule at every wake-up) and an hour of a
 * seconds cron (a catch-up plan).
 * Run: npm run build && node --expose-gc dist/bench/run.js cron
 */
import cronParser from 'cron-parser';
import type { ScheduleSpec } from '../../src/scheduler/index.js';
import { firesBetween, nextFires } from '../../src/time/index.js';
import { fmt, median } from '../support/stats.js';

type Timing = Pick<ScheduleSpec, 'cron' | 'timezone'> & { cron: string };

const CASES: Array<{ what: string; timing: Timing; from: string }> = [
  {
    what: 'a midnight that did not exist (São Paulo, 4 Nov 2018)',
    timing: { cron: '0 0 * * *', timezone: 'America/Sao_Paulo' },
    from: '2018-11-02T12:00:00Z',
  },
  {
    what: 'days 1, 11, 21, 31 that are Mondays (Vixie: a * day-of-month ANDs)',
    timing: { cron: '0 0 */10 * 1', timezone: 'UTC' },
    from: '2026-01-01T00:00:00Z',
  },
];

function libraryFires(timing: Timing, from: Date, count: number): string[] {
  const it = cronParser.parseExpression(timing.cron, { tz: timing.timezone, currentDate: from });
  return Array.from({ length: count }, () => it.next().toDate().toISOString());
}

/** Median ms per call over `rounds` rounds of `n` calls. */
function timed(fn: () => void, n: number, rounds = 5): number {
  fn();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) fn();
    samples.push((performance.now() - started) / n);
  }
  return median(samples);
}

export async function run(): Promise<void> {
  for (const c of CASES) {
    const from = new Date(c.from);
    const ours = nextFires(c.timing, from, 3).map((d) => d.toISOString());
    const theirs = libraryFires(c.timing, from, 3);
    console.log(`${c.what}, \`${c.timing.cron}\` in ${c.timing.timezone}:`);
    console.log(`  ours:        ${ours.join(', ')}`);
    console.log(`  cron-parser: ${theirs.join(', ')}${theirs.join() === ours.join() ? '' : '  (differs)'}`);
  }
  const from = new Date('2026-11-20T12:00:00Z');
  const weekday: Timing = { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' };
  const a = timed(() => nextFires(weekday, from, 5), 2_000);
  const b = timed(() => libraryFires(weekday, from, 5), 50);
  console.log(
    `next 5 fires of \`0 9 * * 1-5\` in Europe/Berlin: ours ${fmt(a, 4)} ms, cron-parser ${fmt(b, 2)} ms (${fmt(b / a, 0)}×)`,
  );
  const until = new Date(from.getTime() + 3_600_000);
  const seconds: Timing = { cron: '* * * * * *', timezone: 'Europe/Berlin' };
  const c = timed(() => firesBetween(seconds, from, until), 10);
  const d = timed(() => {
    const it = cronParser.parseExpression(seconds.cron, { tz: seconds.timezone, currentDate: from, endDate: until });
    while (it.hasNext()) it.next();
  }, 2);
  console.log(
    `an hour of a seconds cron (3,600 slots): ours ${fmt(c, 1)} ms, cron-parser ${fmt(d, 1)} ms (${fmt(d / c, 0)}×)`,
  );
}
