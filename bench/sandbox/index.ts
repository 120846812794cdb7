/**
 * Sandbox benchmark on `medium` (or `--scale=small|large`): generation time, p50/p95 latency of
 * five representative pivots over HTTP, async CSV throughput for a ~1-million-row result, peak RSS.
 */
import { startSandbox } from '../../src/sandbox/index.js';
import { fmt, quantile, rssMiB, trackPeakRss } from '../support/stats.js';

type Scale = 'small' | 'medium' | 'large';

function day(now: Date, daysAgo: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo))
    .toISOString()
    .slice(0, 10);
}

export async function run(args: readonly string[]): Promise<void> {
  const scale = (args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 'medium') as Scale;
  const iterations = Number(args.find((a) => a.startsWith('--iterations='))?.slice(13) ?? 20);
  const peak = trackPeakRss(20);
  const now = new Date();
  const started = performance.now();
  const sandbox = await startSandbox({ scale, seed: 1, now, faults: { asyncStepMs: 0 } });
  const startMs = performance.now() - started;
  console.log(
    `scale ${scale}: ${sandbox.generation.factRows.toLocaleString('en-US')} fact rows, ` +
      `${sandbox.generation.postbackRows.toLocaleString('en-US')} postbacks`,
  );
  console.log(
    `generation ${fmt(sandbox.generation.millis / 1000, 2)} s (start-up incl. server ${fmt(startMs / 1000, 2)} s)`,
  );

  try {
    const token = (await (
      await fetch(sandbox.authUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${sandbox.clientId}&client_secret=${sandbox.clientSecret}`,
      })
    ).json()) as { access_token: string };
    const gql = async (query: string): Promise<Record<string, unknown>> => {
      const res = await fetch(sandbox.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ query }),
      });
      const body = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
      if (body.errors !== undefined) throw new Error(JSON.stringify(body.errors));
      return body.data ?? {};
    };

    const yesterday = day(now, 1);
    const today = day(now, 0);
    const pivots: [string, string][] = [
      [
        'date×country 30 days, 6 metrics',
        `{ pivot(from: "${day(now, 30)}", to: "${today}") { results { date(granularity: DAILY) countryCode impressions clicks spend installs installsCpi eventsRoas } totals { spend installs } } }`,
      ],
      [
        'same in America/New_York',
        `{ pivot(from: "${day(now, 30)}", to: "${today}", context: { sqlTimeZone: "America/New_York" }) { results { date(granularity: DAILY) countryCode impressions clicks spend installs installsCpi eventsRoas } totals { spend installs } } }`,
      ],
      [
        'campaign×source 7 days',
        `{ pivot(from: "${day(now, 7)}", to: "${today}") { results { campaignId campaign source impressions spend installs installsCpi } totals { spend } } }`,
      ],
      [
        'siteBundle 7 days',
        `{ pivot(from: "${day(now, 7)}", to: "${today}") { results { siteBundle impressions spend installs } } }`,
      ],
      [
        'hourly yesterday',
        `{ pivot(from: "${yesterday}", to: "${today}") { results { date(granularity: HOURLY) impressions clicks spend installs } } }`,
      ],
      [
        'postbackShare 30 days',
        `{ postbackShare(from: "${day(now, 30)}", to: "${today}", track: EVENTS, includeRevenue: true, postbackKeys: ["event_name", "currency"], filter: { appId: { equals: 101 } }) { results { postbackKey totalCount results { value count percentage revenue } } } }`,
      ],
    ];
    console.log(`\npivot latency over HTTP (${iterations} runs after 2 warm-ups)`);
    console.log('| query | rows | p50 ms | p95 ms |');
    console.log('|---|---:|---:|---:|');
    for (const [name, query] of pivots) {
      let rows = 0;
      for (let i = 0; i < 2; i++) await gql(query);
      const samples: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const t = performance.now();
        const data = await gql(query);
        samples.push(performance.now() - t);
        const pivot = data.pivot as { results: unknown[] } | undefined;
        rows = pivot?.results.length ?? (data.postbackShare as { results: unknown[] }).results.length;
      }
      console.log(`| ${name} | ${rows} | ${fmt(quantile(samples, 0.5))} | ${fmt(quantile(samples, 0.95))} |`);
    }

    // ~1 million rows: every delivery row of 250 days keeps its own combination of these dimensions.
    const input = `{ from: "${day(now, 250)}", to: "${today}", dimensions: ["date", "campaignId", "siteName", "countryCode", "deviceType", "sourceId"], metrics: ["impressions", "clicks", "spend", "installs", "events", "eventValue"] }`;
    const t0 = performance.now();
    const created = (await gql(`mutation { createAsyncPivot(Input: ${input}) { asyncPivot { id } } }`)) as {
      createAsyncPivot: { asyncPivot: { id: string } };
    };
    const id = created.createAsyncPivot.asyncPivot.id;
    let url: string | null = null;
    for (;;) {
      const data = (await gql(`{ asyncPivot(pivotId: "${id}") { status url } }`)) as {
        asyncPivot: { status: string; url: string | null };
      };
      if (data.asyncPivot.status === 'FAILED') throw new Error('async pivot failed');
      if (data.asyncPivot.status === 'READY') {
        url = data.asyncPivot.url;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const readyMs = performance.now() - t0;
    const t1 = performance.now();
    const csv = await (await fetch(url as string)).arrayBuffer();
    const downloadMs = performance.now() - t1;
    let lines = 0;
    const bytes = new Uint8Array(csv);
    for (const b of bytes) if (b === 10) lines++;
    const mb = csv.byteLength / 1e6;
    console.log(
      `\nasync CSV: ${(lines - 1).toLocaleString('en-US')} rows, ${fmt(mb)} MB; create→READY ${fmt(readyMs / 1000, 2)} s ` +
        `(${fmt(mb / (readyMs / 1000))} MB/s incl. the query); download ${fmt(downloadMs / 1000, 2)} s (${fmt(mb / (downloadMs / 1000))} MB/s)`,
    );
  } finally {
    await sandbox.stop();
    console.log(`peak RSS ${fmt(peak.stop(), 0)} MiB (now ${fmt(rssMiB(), 0)} MiB)`);
  }
}
