/**
 * Slack for bench/slack, in its own process (the real Slack is remote, so its work must not sit
 * on the bench's event loop): the Slack test server, plus a control endpoint the bench long-polls.
 * `GET /wait?grep=TEXT&above=N&timeoutMs=T` answers once more than N chat.postMessage calls
 * contain TEXT (or at the timeout) with `{"count":…}`; `GET /view?trigger=T|id=V&above=N` answers once
 * that modal has more than N updates. For `--events` (follow-ups in threads): `POST /say` with
 * `{"channel","user","text","threadTs"?,"mention"?}` stores a person's message as Slack would and
 * answers with the `message` (or `app_mention`) event Slack sends for it; `GET /answers?channel=C&above=N`
 * answers once C has more than N answers of the bot outside threads, with `{"ts":[…]}`;
 * `GET /reply?channel=C&threadTs=T` answers once the bot posted an answer in that thread (a message
 * carrying the query it ran), with `{"at":its arrival ms,"before":the bot's posts there before it}`
 * (`{}` at the timeout).
 * Prints `{"baseUrl":…,"apiUrl":…,"control":…}`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlackTestServer } from '../../test/support/slackTestServer.js';

const slack = await new SlackTestServer().start();
/** The channel of the bench's follow-up threads (`--events`): its own, as a team's reports channel. */
slack.knownChannels.set('C0THREADS1', 'ua-daily');
slack.memberOf.add('C0THREADS1');
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

/**
 * The bot's first answer in each thread (`channel:thread_ts`), and how many posts came before it
 * (a "queued" notice), indexed from the calls recorded since the last look: a hundred long-polls
 * waiting at once each look up one key, never re-scan the calls.
 */
const inThread = new Map<string, { at?: number; before: number }>();
let indexed = 0;
const firstAnswer = (key: string) => {
  const calls = slack.calls;
  for (; indexed < calls.length; indexed++) {
    const call = calls[indexed] as (typeof calls)[number];
    if (call.method !== 'chat.postMessage' || call.limited || call.error || typeof call.args.thread_ts !== 'string')
      continue;
    const thread = `${String(call.args.channel)}:${call.args.thread_ts}`;
    const seen = inThread.get(thread) ?? { before: 0 };
    inThread.set(thread, seen);
    if (seen.at !== undefined) continue;
    const metadata = typeof call.args.metadata === 'string' ? call.args.metadata : JSON.stringify(call.args.metadata);
    if ((metadata ?? '').includes('pivotbot_answer')) seen.at = call.at;
    else seen.before++;
  }
  const seen = inThread.get(key);
  return seen?.at !== undefined ? seen : undefined;
};
/**
 * `/reply` long-polls waiting for their answer, checked together every 25 ms: two hundred of them
 * each on its own timer would be work that the real Slack does not put on the bot's cores.
 */
const pending = new Map<() => void, string>();
const checkPending = () => {
  for (const [answer, key] of pending) if (firstAnswer(key) !== undefined) answer();
};
setInterval(() => {
  if (pending.size > 0) checkPending();
}, 25).unref();
const answersIn = (channel: string) =>
  slack.messages
    .filter((m) => m.channel === channel && m.threadTs === undefined && m.metadata?.event_type === 'pivotbot_answer')
    .map((m) => m.ts);
const readBody = (req: import('node:http').IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/say') {
    void readBody(req).then((text) => {
      const m = JSON.parse(text) as {
        channel: string;
        user: string;
        text: string;
        threadTs?: string;
        mention?: boolean;
      };
      const options = { ...(m.threadTs ? { threadTs: m.threadTs } : {}), ...(m.mention ? { mention: true } : {}) };
      res.end(JSON.stringify(slack.say(m.channel, m.user, m.text, options)));
    });
    return;
  }
  if (url.pathname === '/answers') {
    const channel = url.searchParams.get('channel') ?? '';
    const above = Number(url.searchParams.get('above') ?? '-1');
    const answerTs = () => res.end(JSON.stringify({ ts: answersIn(channel) }));
    slack
      .waitFor(() => answersIn(channel).length > above, Number(url.searchParams.get('timeoutMs') ?? '60000'), 'answers')
      .then(answerTs, answerTs);
    return;
  }
  if (url.pathname === '/reply') {
    const key = `${url.searchParams.get('channel')}:${url.searchParams.get('threadTs')}`;
    const answerReply = () => {
      clearTimeout(timer);
      pending.delete(answerReply);
      res.end(JSON.stringify(firstAnswer(key) ?? {}));
    };
    const timer = setTimeout(answerReply, Number(url.searchParams.get('timeoutMs') ?? '60000'));
    pending.set(answerReply, key);
    checkPending();
    return;
  }
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
