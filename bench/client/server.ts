/**
 * The upstream for bench/client, run as a child process so serving and parsing do not share one
 * event loop: a token endpoint (20 ms, counting requests) and a GraphQL endpoint answering a
 * pre-built pivot of ROWS rows. Prints `{"port":N}` when ready; `GET /stats` reports counters.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const rows = Number(process.env.ROWS ?? 50_000);
const countries = ['US', 'BR', 'DE', 'JP', 'IN', 'GB', 'FR', 'MX', 'KR', 'CA'];
const results = Array.from({ length: rows }, (_, i) => ({
  date: new Date(Date.UTC(2026, 9, 1 + (i % 30))).toISOString(),
  countryCode: countries[i % countries.length],
  campaign: `Campaign ${i % 1667}`,
  impressions: String(100_000 + i * 7),
  clicks: String(1_000 + (i % 977)),
  installs: String(50 + (i % 311)),
  spend: 1234.5678 + i / 7,
  installsCpi: 2.5 + (i % 100) / 37,
  ctr: 0.0123 + (i % 50) / 10_000,
}));
const pivotBody = JSON.stringify({
  data: {
    pivot: { results, totals: { impressions: '9', clicks: '9', installs: '9', spend: 1, installsCpi: 1, ctr: 1 } },
  },
});
const smallBody = JSON.stringify({ data: { pivot: { results: results.slice(0, 10), totals: {} } } });
let tokenRequests = 0;
let graphqlRequests = 0;

const server = createServer((req, res) => {
  if (req.url === '/stats') {
    res.end(JSON.stringify({ tokenRequests, graphqlRequests }));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/v1/oauth/token') {
      tokenRequests++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `t${tokenRequests}`, token_type: 'Bearer', expires_in: 7200 }));
      }, 20);
      return;
    }
    graphqlRequests++;
    const small = Buffer.concat(chunks).toString().includes('small: spend');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(small ? smallBody : pivotBody);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({ port: (server.address() as AddressInfo).port, bytes: pivotBody.length })}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
