/**
 * bench/client: compile + send + parse a 50,000-row pivot over loopback (rows/s, peak RSS), and
 * 500 concurrent queries on a cold token cache (must make exactly one token request).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PivotRequest, ReportingClient } from '../../src/reporting/index.js';
import { fmt, median, quantile, rssMiB, trackPeakRss } from '../support/stats.js';

const ROWS = 50_000;

const request: PivotRequest = {
  from: '2026-10-01',
  to: '2026-10-31',
  dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }, { name: 'countryCode' }, { name: 'campaign' }],
  metrics: [
    { name: 'impressions' },
    { name: 'clicks' },
    { name: 'installs' },
    { name: 'spend' },
    { name: 'installsCpi' },
    { name: 'ctr' },
  ],
};

async function startUpstream(): Promise<{ child: ChildProcess; baseUrl: string; bytes: number }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [join(here, 'server.js')], {
    env: { ...process.env, ROWS: String(ROWS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  const { port, bytes } = JSON.parse(line.toString()) as { port: number; bytes: number };
  return { child, baseUrl: `http://127.0.0.1:${port}`, bytes };
}

function newClient(baseUrl: string): ReportingClient {
  return new ReportingClient({
    authUrl: `${baseUrl}/v1/oauth/token`,
    graphqlUrl: `${baseUrl}/v1/graphql`,
    clientId: 'bench',
    clientSecret: 'bench-secret',
    now: () => new Date('2026-10-31T12:00:00Z'),
  });
}

async function stats(baseUrl: string): Promise<{ tokenRequests: number; graphqlRequests: number }> {
  return (await (await fetch(`${baseUrl}/stats`)).json()) as { tokenRequests: number; graphqlRequests: number };
}

export async function run(_args: readonly string[]): Promise<void> {
  const upstream = await startUpstream();
  try {
    const client = newClient(upstream.baseUrl);
    await client.pivot(request); // warm-up: token, JIT
    const rssBefore = rssMiB();
    const peak = trackPeakRss();
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      const result = await client.pivot(request);
      times.push(performance.now() - start);
      if (result.rows.length !== ROWS) throw new Error(`expected ${ROWS} rows, got ${result.rows.length}`);
    }
    const peakRss = peak.stop();
    const med = median(times);
    console.log(`50k-row pivot (${fmt(upstream.bytes / 1024 / 1024)} MiB JSON), 10 runs:`);
    console.log(
      `  median ${fmt(med)} ms, p90 ${fmt(quantile(times, 0.9))} ms → ${Math.round(ROWS / (med / 1000)).toLocaleString('en-US')} rows/s`,
    );
    console.log(`  RSS before ${fmt(rssBefore)} MiB, peak ${fmt(peakRss)} MiB`);

    const before = await stats(upstream.baseUrl);
    const cold = newClient(upstream.baseUrl);
    const small: PivotRequest = {
      ...request,
      context: { sqlTimeZone: 'UTC' },
      metrics: [{ name: 'spend', alias: 'small' }],
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: 500 }, () => cold.pivot(small)));
    const elapsed = performance.now() - start;
    const after = await stats(upstream.baseUrl);
    const tokenRequests = after.tokenRequests - before.tokenRequests;
    console.log('500 concurrent queries on a cold token cache:');
    console.log(
      `  ${tokenRequests} token request(s), ${after.graphqlRequests - before.graphqlRequests} GraphQL requests, ${fmt(elapsed)} ms`,
    );
    if (tokenRequests !== 1) throw new Error(`expected exactly one token request, saw ${tokenRequests}`);
  } finally {
    upstream.child.kill('SIGTERM');
  }
}
