/**
 * bench/pacing: a backtest of the month-end spend forecast (`forecastMonthEnd`) on the sandbox's
 * history. For every calendar month the sandbox holds whole (and the 28 days before its 10th), the
 * forecast made on the 10th (nine complete days) is compared with the month's actual spend, for
 * the whole account and per app; the flat run rate (spent ÷ days × days in month) is shown beside it.
 *
 * Then the forecast's interval (`forecastInterval`): the forecast made on every day of every whole
 * month (from its 2nd, with the 28 days before in the data), for the account and each app, its
 * relative error actual ÷ forecast − 1 gathered by the days the month had left. It prints the 10th
 * and 90th percentiles of those errors as the table `FORECAST_ERROR_QUANTILES` is written
 * (src/reports/forecastInterval.ts), and the coverage of the table in the code: how often the
 * month's real spend fell inside the interval. Run it on another seed for coverage out of sample.
 * Run: npm run build && node dist/bench/run.js pacing [--scale=small|medium] [--seed=N] [--now=ISO]
 */
import {
  type DayValue,
  errorQuantiles,
  forecastInterval,
  forecastMonthEnd,
  INTERVAL_LEVEL,
} from '../../src/reports/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { fmt, quantile } from '../support/stats.js';

type Scale = 'small' | 'medium' | 'large';

interface Case {
  month: string;
  scope: string;
  actual: number;
  weighted: number;
  flat: number;
}

/** One forecast of the interval backtest: made with `daysLeft` days of its month left. */
interface Sample {
  scope: string;
  daysLeft: number;
  actual: number;
  forecast: number;
  spent: number;
  daysElapsed: number;
  daysInMonth: number;
}

const DAY_MS = 86_400_000;
const addDays = (date: string, n: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export async function run(args: readonly string[]): Promise<void> {
  const scale = (args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 'small') as Scale;
  const seed = Number(args.find((a) => a.startsWith('--seed='))?.slice(7) ?? 1);
  const now = new Date(args.find((a) => a.startsWith('--now='))?.slice(6) ?? '2026-11-20T12:00:00Z');
  const sandbox = await startSandbox({ scale, seed, now, faults: { asyncStepMs: 0 } });
  try {
    const rows = await sandbox.sql(
      `SELECT strftime(date_trunc('day', f.ts AT TIME ZONE 'UTC'), '%Y-%m-%d') AS d, c.app_id AS app, sum(f.spend) AS spend
       FROM facts f JOIN campaigns c USING (campaign_id) GROUP BY 1, 2 ORDER BY 1`,
    );
    const byScope = new Map<string, DayValue[]>();
    const add = (scope: string, date: string, value: number) => {
      const days = byScope.get(scope) ?? [];
      days.push({ date, value });
      byScope.set(scope, days);
    };
    for (const r of rows) {
      const value = Number(r.spend ?? 0);
      add('account', String(r.d), value);
      add(`app ${String(r.app)}`, String(r.d), value);
    }
    const dates = [...new Set(rows.map((r) => String(r.d)))].sort();
    const firstDay = dates[0] ?? '';
    const today = now.toISOString().slice(0, 10);
    console.log(
      `scale ${scale}, seed ${seed}, now ${now.toISOString()}: daily spend ${firstDay} … ${dates.at(-1)}, UTC`,
    );
    const months = [...new Set(dates.map((d) => d.slice(0, 7)))];
    const monthEnd = (month: string) => {
      const [y, m] = month.split('-').map(Number) as [number, number];
      return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
    };
    tenthOfTheMonth(byScope, months, monthEnd, firstDay, today);
    intervals(byScope, months, monthEnd, firstDay, today);
  } finally {
    await sandbox.stop();
  }
}

/** The forecast made on each whole month's 10th against the month's spend, and the flat run rate beside it. */
function tenthOfTheMonth(
  byScope: ReadonlyMap<string, DayValue[]>,
  months: readonly string[],
  monthEnd: (month: string) => string,
  firstDay: string,
  today: string,
): void {
  const cases: Case[] = [];
  for (const month of months) {
    const tenth = `${month}-10`;
    // A whole month before today, with the four weeks before its 10th in the data.
    if (addDays(tenth, -28) < firstDay || monthEnd(month) > today) continue;
    for (const [scope, days] of byScope) {
      const actual = days.filter((d) => d.date.startsWith(month)).reduce((s, d) => s + d.value, 0);
      if (actual < 1000) continue;
      const forecast = forecastMonthEnd(
        days.filter((d) => d.date < tenth),
        tenth,
      );
      if (!forecast) continue;
      const flat = (forecast.spent / forecast.daysElapsed) * forecast.daysInMonth;
      cases.push({ month, scope, actual, weighted: forecast.forecast, flat });
    }
  }
  const error = (f: number, a: number) => (f - a) / a;
  for (const c of cases.filter((x) => x.scope === 'account')) {
    console.log(
      `${c.month} account: actual ${fmt(c.actual, 0)}, forecast on the 10th ${fmt(c.weighted, 0)} (error ${fmt(100 * error(c.weighted, c.actual), 1)} %), flat run rate ${fmt(c.flat, 0)} (error ${fmt(100 * error(c.flat, c.actual), 1)} %)`,
    );
  }
  const apps = cases.filter((x) => x.scope !== 'account');
  const mape = (pick: (c: Case) => number) =>
    apps.reduce((s, c) => s + Math.abs(error(pick(c), c.actual)), 0) / Math.max(1, apps.length);
  const worst = apps.reduce((w, c) => Math.max(w, Math.abs(error(c.weighted, c.actual))), 0);
  console.log(
    `per app (${apps.length} app-months, spend ≥ 1,000): mean absolute error weighted ${fmt(100 * mape((c) => c.weighted), 1)} %, flat ${fmt(100 * mape((c) => c.flat), 1)} %; worst weighted ${fmt(100 * worst, 1)} %`,
  );
}

/**
 * Every forecast day of every whole month, for each scope: the errors' quantiles by days left (the
 * table the code keeps), and how often the code's interval held the month's real spend.
 */
function intervals(
  byScope: ReadonlyMap<string, DayValue[]>,
  months: readonly string[],
  monthEnd: (month: string) => string,
  firstDay: string,
  today: string,
): void {
  const samples: Sample[] = [];
  for (const month of months) {
    const first = `${month}-01`;
    if (addDays(first, -28) < firstDay || monthEnd(month) > today) continue;
    for (const [scope, days] of byScope) {
      const actual = days.filter((d) => d.date.startsWith(month)).reduce((s, d) => s + d.value, 0);
      if (actual < 1000) continue;
      for (let day = addDays(first, 1); day < monthEnd(month); day = addDays(day, 1)) {
        const f = forecastMonthEnd(
          days.filter((d) => d.date < day),
          day,
        );
        if (!f || f.forecast <= 0) continue;
        const { spent, daysElapsed, daysInMonth, forecast } = f;
        samples.push({ scope, daysLeft: daysInMonth - daysElapsed, actual, forecast, spent, daysElapsed, daysInMonth });
      }
    }
  }
  const scopes = new Set(samples.map((s) => s.scope)).size;
  console.log(
    `\nforecast interval: ${samples.length} forecasts (every day from the 2nd of each whole month, ${scopes} scopes: the account and each app with spend ≥ 1,000 in the month)`,
  );
  const lo = (1 - INTERVAL_LEVEL) / 2;
  const hi = 1 - lo;
  const lines: string[] = [];
  for (let left = 1; left <= 30; left++) {
    const errors = samples.filter((s) => s.daysLeft === left).map((s) => s.actual / s.forecast - 1);
    if (errors.length === 0) continue;
    lines.push(`  [${left}, ${fmt(quantile(errors, lo), 4)}, ${fmt(quantile(errors, hi), 4)}], // n=${errors.length}`);
  }
  console.log(
    `measured quantiles ${fmt(lo, 2)} / ${fmt(hi, 2)} of actual ÷ forecast − 1 by days left (FORECAST_ERROR_QUANTILES):`,
  );
  console.log(lines.join('\n'));
  const inside = (s: Sample) => {
    const { low, high } = forecastInterval(s);
    return s.actual >= low && s.actual <= high;
  };
  const coverage = (list: readonly Sample[]) =>
    `${fmt((100 * list.filter(inside).length) / Math.max(1, list.length), 1)} % of ${list.length}`;
  const account = samples.filter((s) => s.scope === 'account');
  const apps = samples.filter((s) => s.scope !== 'account');
  console.log(
    `coverage of the code's table (nominal ${Math.round(INTERVAL_LEVEL * 100)} %): all ${coverage(samples)}; account ${coverage(account)}; per app ${coverage(apps)}`,
  );
  for (const [from, to] of [
    [1, 7],
    [8, 14],
    [15, 21],
    [22, 31],
  ] as const) {
    const part = samples.filter((s) => s.daysLeft >= from && s.daysLeft <= to);
    const [l, h] = errorQuantiles(Math.round((from + to) / 2));
    console.log(
      `  days left ${from}–${to}: coverage ${coverage(part)} (the table's row for ${Math.round((from + to) / 2)}: ${fmt(100 * l, 1)} % … +${fmt(100 * h, 1)} %)`,
    );
  }
}
