/**
 * Slack for bench/slack, in its own process (the real Slack is remote, so its work must not sit
 * on the bench's event loop): the Slack test server, plus a control endpoint the bench long-polls.
 * `GET /wait?grep=TEXT&above=N&timeoutMs=T` answers once more than N chat.postMessage calls
 * contain TEXT (or at the timeout) with `{"count":…}`; `GET /view?trigger=T|id=V&above=N` answers once
 * that modal has more than N updates. Prints `{"baseUrl":…,"apiUrl":…,"control":…}`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlackTestServer } from '../../test/support/slackTestServer.js';

const slack = await new SlackTestServer().start();
// Each post's blocks are serialized once: every waiting long-poll re-counts on each call Slack
// records and every 25 ms, and serializing hundreds of posts each time kept this process (and
// so the machine's second core) busy enough to delay the very calls the bench times.
const blocksText = new WeakMap<object, string>();
const textOf = (call: { args: Record<string, unknown> }) => {
  let text = blocksText.get(call);
  if (text === undefined) {
    text = JSON.stringify(call.args.blocks ?? '');
    blocksText.set(call, text);
  }
  return text;
};
const count = (grep: string) =>
  slack.callsTo('chat.postMessage').filter((c) => grep === '' || textOf(c).includes(grep)).length;

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const grep = url.searchParams.get('grep') ?? '';
  const above = Number(url.searchParams.get('above') ?? '-1');
  const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? '60000');
  const answer = () => res.end(JSON.stringify({ count: count(grep) }));
  if (url.pathname === '/view') {
    // A modal (by the trigger that opened it, or its id) once it has more than `above` updates:
    // `{"id","hash","ats":[arrival ms of each views.update]}` (bench/slack --modal).
    const trigger = url.searchParams.get('trigger');
    const find = () =>
      [...slack.views.entries()].find(([id, v]) =>
        trigger ? v.triggerId === trigger : id === url.searchParams.get('id'),
      );
    const updates = (id: string) => slack.callsTo('views.update').filter((c) => c.args.view_id === id && !c.limited);
    const answerView = () => {
      const found = find();
      res.end(
        JSON.stringify(found ? { id: found[0], hash: found[1].hash, ats: updates(found[0]).map((c) => c.at) } : {}),
      );
    };
    slack
      .waitFor(
        () => {
          const found = find();
          return found !== undefined && updates(found[0]).length > above;
        },
        timeoutMs,
        'the modal',
      )
      .then(answerView, answerView);
    return;
  }
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
