/**
 * Slack for bench/slack, in its own process (the real Slack is remote, so its work must not sit
 * on the bench's event loop): the Slack test server, plus a control endpoint the bench long-polls.
 * `GET /wait?grep=TEXT&above=N&timeoutMs=T` answers once more than N chat.postMessage calls
 * contain TEXT (or at the timeout) with `{"count":…}`. Prints `{"baseUrl":…,"apiUrl":…,"control":…}`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlackTestServer } from '../../test/support/slackTestServer.js';

const slack = await new SlackTestServer().start();
const count = (grep: string) =>
  slack.callsTo('chat.postMessage').filter((c) => grep === '' || JSON.stringify(c.args.blocks ?? '').includes(grep))
    .length;

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const grep = url.searchParams.get('grep') ?? '';
  const above = Number(url.searchParams.get('above') ?? '-1');
  const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? '60000');
  const answer = () => res.end(JSON.stringify({ count: count(grep) }));
  if (url.pathname !== '/wait') {
    res.writeHead(404).end();
    return;
  }
  slack.waitFor(() => count(grep) > above, timeoutMs, 'posts').then(answer, answer);
});
control.listen(0, '127.0.0.1', () => {
  const port = (control.address() as AddressInfo).port;
  process.stdout.write(
    `${JSON.stringify({ baseUrl: slack.baseUrl, apiUrl: slack.apiUrl, control: `http://127.0.0.1:${port}` })}\n`,
  );
});
process.once('SIGTERM', () => {
  control.close();
  void slack.stop().then(() => process.exit(0));
});
