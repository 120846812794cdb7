/**
 * Slack for bench/scheduler, in its own process: the Slack test server enforcing Slack's rate
 * limits (every method's tier and chat.postMessage's per-channel budget) with 429s, in windows
 * of `BENCH_WINDOW_MS` (Slack: 60 000), member of the channels in `BENCH_CHANNELS`. A control
 * endpoint the bench long-polls: `GET /wait?digests=N&timeoutMs=T` answers once N digest messages
 * are posted and every file upload begun has completed (or at the timeout) with what happened.
 * Prints `{"baseUrl":…,"apiUrl":…,"control":…}`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlackTestServer } from '../../test/support/slackTestServer.js';

const windowMs = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const slack = await new SlackTestServer({ rateLimits: { windowMs } }).start();
for (const channel of (process.env.BENCH_CHANNELS ?? '').split(',').filter(Boolean)) {
  slack.knownChannels.set(channel, channel.toLowerCase());
  slack.memberOf.add(channel);
}

const digests = () => slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_digest' && !m.threadTs);
const accepted = (method: string) => slack.callsTo(method).filter((c) => !c.limited);
/** Every upload the bot began (an upload URL) has been completed. */
const uploadsSettled = () =>
  accepted('files.getUploadURLExternal').length <= accepted('files.completeUploadExternal').length;

function summary() {
  const posted = digests();
  const calls: Record<string, number> = {};
  for (const call of slack.calls) if (!call.limited) calls[call.method] = (calls[call.method] ?? 0) + 1;
  const perChannel: Record<string, number> = {};
  for (const call of accepted('chat.postMessage')) {
    const channel = String(call.args.channel);
    perChannel[channel] = (perChannel[channel] ?? 0) + 1;
  }
  const completes = accepted('files.completeUploadExternal');
  return {
    digests: posted.length,
    slots: [...new Set(posted.map((m) => String(m.metadata?.event_payload.slot)))],
    firstDigestMs: posted.length ? Number(posted[0]?.ts) * 1000 : undefined,
    lastDigestMs: posted.length ? Math.max(...posted.map((m) => Number(m.ts) * 1000)) : undefined,
    lastUploadMs: completes.length ? Math.max(...completes.map((c) => c.at)) : undefined,
    calls,
    maxPostsPerChannel: Math.max(0, ...Object.values(perChannel)),
    rateLimited: slack.rateLimited(),
    duplicates:
      posted.length - new Set(posted.map((m) => `${m.channel}|${JSON.stringify(m.metadata?.event_payload)}`)).size,
  };
}

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/wait') {
    res.writeHead(404).end();
    return;
  }
  const want = Number(url.searchParams.get('digests') ?? '0');
  const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? '60000');
  const answer = () => res.end(JSON.stringify(summary()));
  slack.waitFor(() => digests().length >= want && uploadsSettled(), timeoutMs, 'digests').then(answer, answer);
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
