/**
 * bench/pacing: a backtest of the month-end spend forecast (`forecastMonthEnd`) on the sandbox's
 * history. For every calendar month the sandbox holds whole (and the 28 days before its 10th), the
 * forecast made on the 10th (nine complete days) is compared with the month's actual spend, for
 * the whole account and per app; the flat run rate (spent ÷ days × days in month) is shown beside it.
 * Run: npm run build && node dist/bench/run.js pacing [--scale=small|medium] [--now=ISO]
 */
import { type DayValue, forecastMonthEnd } from '../../src/reports/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { fmt } from '../support/stats.js';

type Scale = 'small' | 'medium' | 'large';

interface Case {
  month: string;
  scope: string;
  actual: number;
  weighted: number;
  flat: number;
}

export async function run(args: readonly string[]): Promise<void> {
  const scale = (args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 'small') as Scale;
  const now = new Date(args.find((a) => a.startsWith('--now='))?.slice(6) ?? '2026-11-20T12:00:00Z');
  const sandbox = await startSandbox({ scale, seed: 1, now, faults: { asyncStepMs: 0 } });
  try {
    const rows = await sandbox.sql(
      `SELECT strftime(date_trunc('day', f.ts AT TIME ZONE 'UTC'), '%Y-%m-%d') AS d, c.app_id AS app, sum(f.spend) AS spend
       FROM facts f JOIN campaigns c USING (campaign_id) GROUP BY 1, 2 ORDER BY 1`,
    );
    const byScope = new Map<string, DayValue[]>();
    const add = (scope: string, date: string, value: number) => {
      byScope.set(scope, [...(byScope.get(scope) ?? []), { date, value }]);
    };
    for (const r of rows) {
      const value = Number(r.spend ?? 0);
      add('account', String(r.d), value);
      add(`app ${String(r.app)}`, String(r.d), value);
    }
    const dates = [...new Set(rows.map((r) => String(r.d)))].sort();
    const firstDay = dates[0] ?? '';
    const today = now.toISOString().slice(0, 10);
    console.log(`scale ${scale}, now ${now.toISOString()}: daily spend ${firstDay} … ${dates.at(-1)}, UTC`);
    const cases: Case[] = [];
    for (const month of [...new Set(dates.map((d) => d.slice(0, 7)))]) {
      const tenth = `${month}-10`;
      const [y, m] = month.split('-').map(Number) as [number, number];
      const end = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
      const weightsFrom = new Date(Date.parse(`${tenth}T00:00:00Z`) - 28 * 86_400_000).toISOString().slice(0, 10);
      // A whole month before today, with the four weeks before its 10th in the data.
      if (weightsFrom < firstDay || end > today) continue;
      for (const [scope, days] of byScope) {
        const inMonth = days.filter((d) => d.date.startsWith(month));
        const actual = inMonth.reduce((s, d) => s + d.value, 0);
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
  } finally {
    await sandbox.stop();
  }
}
