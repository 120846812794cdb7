/**
 * The Slack test server reads threads back as Slack does, so that a test sees what the bot would
 * see in a real channel: a parent that has replies carries `thread_ts` (its own ts), `reply_count`
 * and `latest_reply` in `conversations.history`; only broadcast replies show there;
 * `conversations.replies` gives the parent first, then the replies oldest first, within an
 * exclusive `oldest`/`latest` unless `inclusive`. Over real HTTP, through the bot's gateway and raw.
 */
import { silentLogger } from '../../../src/core/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { isTopLevel } from '../../../src/slackapi/historyMessages.js';
import { slackGatewayFor } from '../../../src/slackapi/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const message = (text: string): SlackMessage => ({ text, blocks: [] });

type RawMessage = Record<string, unknown> & { ts: string; text: string };
interface RawPage {
  ok: boolean;
  messages: RawMessage[];
  has_more: boolean;
  response_metadata: { next_cursor: string };
}

describe('threads in the Slack test server', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer().start();
  });

  afterEach(async () => {
    await slack.stop();
  });

  const gatewayFor = () => slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger());

  /** A Web API call as JSON, answered as Slack's raw JSON. */
  const call = async (method: string, args: Record<string, unknown>): Promise<RawPage> => {
    const res = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer xoxb-test' },
      body: JSON.stringify(args),
    });
    return (await res.json()) as RawPage;
  };
  const texts = (page: RawPage) => page.messages.map((m) => m.text);

  it('lists a parent with replies with thread_ts, reply_count and latest_reply, and leaves its replies out', async () => {
    const gateway = gatewayFor();
    const parent = await gateway.post(CHANNEL, message('parent'));
    const lone = await gateway.post(CHANNEL, message('lone'));
    const before = await call('conversations.history', { channel: CHANNEL });
    expect(before.messages.map((m) => [m.text, m.thread_ts, m.reply_count])).toEqual([
      ['lone', undefined, undefined],
      ['parent', undefined, undefined],
    ]);

    await gateway.post(CHANNEL, message('a reply'), { threadTs: parent.ts });
    await gateway.upload(CHANNEL, [{ filename: 'rows.csv', data: Buffer.from('a,b\n1,2\n') }], {
      threadTs: parent.ts,
    });
    const share = slack.fileShares.find((f) => f.threadTs === parent.ts);
    const after = await call('conversations.history', { channel: CHANNEL });
    expect(texts(after)).toEqual(['lone', 'parent']);
    expect(after.messages[1]).toMatchObject({ ts: parent.ts, thread_ts: parent.ts, reply_count: 2 });
    expect(after.messages[1]?.latest_reply).toBe(share?.ts);
    expect(after.messages[0]).not.toHaveProperty('thread_ts');

    // Through the gateway: both are top-level, the parent by its own thread_ts.
    const read = await gateway.history(CHANNEL);
    expect(read.map((m) => [m.ts, m.threadTs, isTopLevel(m)])).toEqual([
      [lone.ts, undefined, true],
      [parent.ts, parent.ts, true],
    ]);
  });

  it("lists a reply broadcast to the channel with its parent's thread_ts, which no reader takes for top-level", async () => {
    const gateway = gatewayFor();
    const parent = await gateway.post(CHANNEL, message('parent'));
    await call('chat.postMessage', {
      channel: CHANNEL,
      text: 'also in the channel',
      thread_ts: parent.ts,
      reply_broadcast: true,
    });
    const history = await call('conversations.history', { channel: CHANNEL });
    expect(history.messages.map((m) => [m.text, m.thread_ts, m.subtype])).toEqual([
      ['also in the channel', parent.ts, 'thread_broadcast'],
      ['parent', parent.ts, undefined],
    ]);
    const read = await gateway.history(CHANNEL);
    expect(read.filter(isTopLevel).map((m) => m.ts)).toEqual([parent.ts]);
  });

  it('answers conversations.replies with the parent first, then the replies oldest first, in an exclusive range', async () => {
    const gateway = gatewayFor();
    const parent = await gateway.post(CHANNEL, message('parent'));
    const reply = (text: string) => gateway.post(CHANNEL, message(text), { threadTs: parent.ts });
    const r1 = await reply('r1');
    await reply('r2');
    const r3 = await reply('r3');

    const all = await call('conversations.replies', { channel: CHANNEL, ts: parent.ts });
    expect(texts(all)).toEqual(['parent', 'r1', 'r2', 'r3']);
    expect(all.messages[0]).toMatchObject({ thread_ts: parent.ts, reply_count: 3, latest_reply: r3.ts });
    expect(all.messages.slice(1).every((m) => m.thread_ts === parent.ts)).toBe(true);

    const range = async (args: Record<string, unknown>) =>
      texts(await call('conversations.replies', { channel: CHANNEL, ts: parent.ts, ...args }));
    expect(await range({ oldest: r1.ts })).toEqual(['parent', 'r2', 'r3']);
    expect(await range({ oldest: r1.ts, inclusive: true })).toEqual(['parent', 'r1', 'r2', 'r3']);
    expect(await range({ latest: r3.ts })).toEqual(['parent', 'r1', 'r2']);
    expect(await range({ latest: r3.ts, inclusive: true })).toEqual(['parent', 'r1', 'r2', 'r3']);
    expect(await range({ oldest: r1.ts, latest: r3.ts })).toEqual(['parent', 'r2']);

    // Paged: the parent heads the first page only.
    const first = await call('conversations.replies', { channel: CHANNEL, ts: parent.ts, limit: 2 });
    expect(texts(first)).toEqual(['parent', 'r1']);
    expect(first.has_more).toBe(true);
    const next = await call('conversations.replies', {
      channel: CHANNEL,
      ts: parent.ts,
      limit: 2,
      cursor: first.response_metadata.next_cursor,
    });
    expect(texts(next)).toEqual(['r2', 'r3']);
    expect(next.has_more).toBe(false);
  });
});
