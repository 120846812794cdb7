/**
 * Planted causes on `medium` (or `--scale=small|large`): the time of each `PUT /sandbox/plants`
 * over HTTP while random plants (one, two or three dimensions, every plantable metric, yesterday
 * or a range of days) replace one another, as a planted-cause accuracy test does; then `[]`, and
 * a check that the data is back to the bit.
 */
import { seededRandom } from '../../src/sandbox/faults.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { PLANT_METRICS } from '../../src/sandbox/plants.js';
import { fmt, quantile } from '../support/stats.js';

type Scale = 'small' | 'medium' | 'large';
const DIMENSIONS = ['countryCode', 'appPlatform', 'source', 'campaignId', 'adType', 'deviceType'] as const;

function day(now: Date, daysAgo: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo))
    .toISOString()
    .slice(0, 10);
}

export async function run(args: readonly string[]): Promise<void> {
  const scale = (args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 'medium') as Scale;
  const count = Number(args.find((a) => a.startsWith('--plants='))?.slice(9) ?? 200);
  const now = new Date();
  const sandbox = await startSandbox({ scale, seed: 1, now });
  console.log(`scale ${scale}: ${sandbox.generation.factRows.toLocaleString('en-US')} fact rows`);
  try {
    const fingerprint = async () =>
      JSON.stringify(
        await sandbox.sql(
          'SELECT bit_xor(hash(rowid, impressions, uniq_imps, viewable, clicks, uniq_clicks, spend, cnt, uniq, revenue))::VARCHAR AS h FROM facts',
        ),
      );
    const original = await fingerprint();
    const token = (await (
      await fetch(sandbox.authUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${sandbox.clientId}&client_secret=${sandbox.clientSecret}`,
      })
    ).json()) as { access_token: string };
    const res = await fetch(sandbox.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({
        query: `{ pivot(from: "${day(now, 1)}", to: "${day(now, 0)}") { results { ${DIMENSIONS.join(' ')} installs } } }`,
      }),
    });
    const segments = ((await res.json()) as { data: { pivot: { results: Record<string, unknown>[] } } }).data.pivot
      .results;
    const random = seededRandom(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

    const put = async (body: unknown) => {
      const started = performance.now();
      const answer = await fetch(`${sandbox.baseUrl}/sandbox/plants`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.clientSecret}` },
        body: JSON.stringify(body),
      });
      const json = (await answer.json()) as { matchedFacts?: number[]; error?: string };
      if (answer.status !== 200) throw new Error(`PUT answered ${answer.status}: ${json.error}`);
      return { ms: performance.now() - started, matched: json.matchedFacts?.[0] ?? 0 };
    };

    const times: Record<string, number[]> = { yesterday: [], range: [] };
    const matched: number[] = [];
    for (let i = 0; i < count; i++) {
      const row = pick(segments);
      const dims = [...DIMENSIONS].sort(() => random() - 0.5).slice(0, 1 + (i % 3));
      const where = Object.fromEntries(dims.map((d) => [d, String(row[d])]));
      const ranged = random() < 0.3;
      const from = 2 + Math.floor(random() * 12);
      const plant = {
        where,
        metric: pick(PLANT_METRICS),
        factor: Math.round(random() * 300) / 100,
        days: ranged ? [day(now, from), day(now, from - 1 - Math.floor(random() * 7))] : 'yesterday',
      };
      const { ms, matched: n } = await put(plant);
      (ranged ? times.range : times.yesterday)?.push(ms);
      matched.push(n);
    }
    const cleared = await put([]);
    const all = [...(times.yesterday ?? []), ...(times.range ?? [])];
    console.log(
      `\n${count} PUTs, one plant each, replacing the previous one (matched fact rows: median ${quantile(matched, 0.5)}, max ${Math.max(...matched)})`,
    );
    console.log('| PUTs | n | p50 ms | p95 ms | max ms |');
    console.log('|---|---|---|---|---|');
    for (const [name, samples] of [['all', all], ...Object.entries(times)] as [string, number[]][]) {
      console.log(
        `| ${name} | ${samples.length} | ${fmt(quantile(samples, 0.5))} | ${fmt(quantile(samples, 0.95))} | ${fmt(Math.max(...samples))} |`,
      );
    }
    console.log(`PUT [] ${fmt(cleared.ms)} ms; data back to the bit: ${(await fingerprint()) === original}`);
  } finally {
    await sandbox.stop();
  }
}
