import { ADMIN, useBotHarness } from '../../support/botHarness.js';
import { BOT_DM, type StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const ASKER = 'U_ASKER';
const text = (value: unknown) => JSON.stringify(value);
const firstLine = (m: StoredMessage | undefined) =>
  String((m?.blocks as Array<{ text?: { text?: string } }> | undefined)?.[0]?.text?.text ?? '').split('\n')[0];

// Follow-ups, DMs and mentions over signed HTTP: Slack's events go in as event_callbacks, the
// answers come out as Web API calls to the Slack test server, and the sandbox answers the queries.
describe('asking again in the thread, over signed HTTP', () => {
  const bot = useBotHarness();
  const slack = () => bot().slack;
  /** The bot's messages (not people's) in a thread, oldest first. */
  const botReplies = (channel: string, threadTs: string) =>
    slack().messages.filter((m) => m.channel === channel && m.threadTs === threadTs && m.user === undefined);

  /** Posts `reply` in the thread as a person and waits for the bot's next message there. */
  async function reply(
    channel: string,
    threadTs: string,
    words: string,
    options: { mention?: boolean } = {},
  ): Promise<StoredMessage> {
    const before = botReplies(channel, threadTs).length;
    const response = await bot().event(slack().say(channel, ASKER, words, { threadTs, ...options }));
    expect(response.status).toBe(200);
    await slack().waitFor(() => botReplies(channel, threadTs).length > before, 30_000, `the answer to "${words}"`);
    return botReplies(channel, threadTs)[before] as StoredMessage;
  }

  /** A `/pivot` answer in the channel: its message as the test server holds it. */
  async function answer(query: string): Promise<StoredMessage> {
    const before = slack().messages.length;
    await bot().command(query, { user: ASKER });
    await slack().waitFor(
      () =>
        slack()
          .messages.slice(before)
          .some((m) => m.metadata?.event_type === 'pivotbot_answer'),
      30_000,
      `the answer to ${query}`,
    );
    return slack()
      .messages.slice(before)
      .find((m) => m.metadata?.event_type === 'pivotbot_answer') as StoredMessage;
  }

  /** A message as an earlier digest or alert of the bot left it in the channel. */
  function botPost(metadata: { event_type: string; event_payload: Record<string, unknown> }): string {
    const ts = `${Math.floor(Date.now() / 1000) - 3600}.${String(slack().messages.length).padStart(6, '0')}`;
    slack().messages.push({ channel: CHANNEL, ts, text: 'an earlier post', blocks: [], metadata });
    return ts;
  }

  it('an answer carries its query; a reply refines it in the thread, first line the whole query; replies chain', async () => {
    const parent = await answer('cpi by country yesterday');
    expect(parent.metadata?.event_payload.query).toBe('cpi by country yesterday');

    const ios = await reply(CHANNEL, parent.ts, 'only iOS');
    expect(firstLine(ios)).toContain('installsCpi by countryCode');
    expect(firstLine(ios)).toContain('appPlatform = IOS');
    expect(text(ios.blocks)).toContain('only iOS');
    expect(String(ios.metadata?.event_payload.query)).toContain('appPlatform = IOS');

    // The next reply refines the latest answer in the thread, not the parent.
    const bySource = await reply(CHANNEL, parent.ts, 'by source instead');
    expect(firstLine(bySource)).toContain('installsCpi by source');
    expect(firstLine(bySource)).toContain('appPlatform = IOS');
    expect(firstLine(bySource)).not.toContain('countryCode');
  });

  it('why? posts the explanation in the thread; as csv uploads the CSV into it', async () => {
    const parent = await answer('spend by country yesterday');
    const why = await reply(CHANNEL, parent.ts, 'why?');
    expect(why.metadata?.event_type).not.toBe('pivotbot_answer');
    expect(text(why.blocks)).toMatch(/spend/i);

    const uploads = slack().callsTo('files.completeUploadExternal').length;
    const urls = slack().callsTo('files.getUploadURLExternal').length;
    await reply(CHANNEL, parent.ts, 'as csv');
    await slack().waitFor(
      () =>
        slack()
          .callsTo('files.completeUploadExternal')
          .slice(uploads)
          .some((c) => c.args.thread_ts === parent.ts),
      30_000,
      'the files in the thread',
    );
    const names = slack()
      .callsTo('files.getUploadURLExternal')
      .slice(urls)
      .map((c) => String(c.args.filename));
    expect(names.some((name) => name.endsWith('.csv'))).toBe(true);
  });

  it('an unreadable reply gets no public answer: its author gets the suggestions privately, once per thread', async () => {
    const parent = await answer('installs by country yesterday');
    const posted = slack().callsTo('chat.postMessage').length;
    const hints = () =>
      slack()
        .callsTo('chat.postEphemeral')
        .filter((c) => c.args.thread_ts === parent.ts);
    await bot().event(slack().say(CHANNEL, ASKER, 'make it blue please', { threadTs: parent.ts }));
    await slack().waitFor(() => hints().length === 1, 30_000, 'the private hint');
    const [hint] = hints();
    expect(hint?.args.user).toBe(ASKER);
    expect(text(hint?.args.blocks)).toContain('Try:');
    expect(text(hint?.args.blocks)).toContain('by source');
    // A second unreadable reply from the same person: nothing at all. A readable one, sent last, is
    // answered; once it is in, the second had its turn.
    await bot().event(slack().say(CHANNEL, ASKER, 'still blue?', { threadTs: parent.ts }));
    await reply(CHANNEL, parent.ts, 'top 2');
    expect(hints()).toHaveLength(1);
    // Only the answer to `top 2` was posted: no query ran for the chatter, nothing public.
    expect(slack().callsTo('chat.postMessage').length).toBe(posted + 1);
  });

  it("a reply under a digest refines the digest's report query", async () => {
    const ts = botPost({
      event_type: 'pivotbot_digest',
      event_payload: { report: 'daily-kpi', channel: CHANNEL, slot: '2026-01-01T12:00:00.000Z', late: false },
    });
    const refined = await reply(CHANNEL, ts, 'by source instead');
    expect(firstLine(refined)).toContain('by source');
    expect(firstLine(refined)).toContain('installsCpi');
    expect(firstLine(refined)).not.toContain('appPlatform');
  });

  it("a reply under an alert parent refines the report's query narrowed to the alert's entity", async () => {
    const ts = botPost({
      event_type: 'pivotbot_alert',
      event_payload: { report: 'daily-kpi', rule: 'cpi-too-high', entity: 'appPlatform=IOS', state: 'open' },
    });
    const refined = await reply(CHANNEL, ts, 'last 7 days');
    expect(firstLine(refined)).toContain('appPlatform = IOS');
    expect(firstLine(refined)).toMatch(/last 7 days/i);
  });

  it('a question in the Messages tab is answered in the DM, and a reply in its thread refines it', async () => {
    const before = slack().messages.length;
    await bot().event(slack().say(BOT_DM, ASKER, 'installs by country yesterday'));
    await slack().waitFor(
      () =>
        slack()
          .messages.slice(before)
          .some((m) => m.channel === BOT_DM && m.metadata !== undefined),
      30_000,
      'the answer in the DM',
    );
    const answered = slack()
      .messages.slice(before)
      .find((m) => m.channel === BOT_DM && m.metadata !== undefined) as StoredMessage;
    expect(answered.threadTs).toBeUndefined();
    const top = await reply(BOT_DM, answered.ts, 'top 3');
    expect(firstLine(top)).toMatch(/top 3/);
    expect(firstLine(top)).toContain('installs by countryCode');
  });

  it('@pivotbot <question> in a channel is answered in a thread under the mention, once', async () => {
    const mention = slack().say(CHANNEL, ASKER, 'spend by platform yesterday', { mention: true });
    // Slack also sends the channel's message event for the same message: it must not answer twice.
    await bot().event({ ...mention, type: 'message', channel_type: 'channel' });
    await bot().event(mention);
    const ts = String(mention.ts);
    await slack().waitFor(() => botReplies(CHANNEL, ts).length > 0, 30_000, 'the answer under the mention');
    expect(firstLine(botReplies(CHANNEL, ts)[0])).toContain('spend by appPlatform');
    // The thread is the asker's (the mention is its parent): a follow-up there mentions the bot again.
    const byCountry = await reply(CHANNEL, ts, 'by country', { mention: true });
    expect(firstLine(byCountry)).toContain('spend by countryCode');
    expect(botReplies(CHANNEL, ts)).toHaveLength(2);
  });

  it("Slack's retries of a reply (X-Slack-Retry-Num) are answered once", async () => {
    const parent = await answer('clicks by country yesterday');
    const event = slack().say(CHANNEL, ASKER, 'only android', { threadTs: parent.ts });
    await bot().event(event, { eventId: 'EvRETRIED' });
    await bot().event(event, { eventId: 'EvRETRIED', retryNum: 1 });
    await bot().event(event, { eventId: 'EvRETRIED', retryNum: 2 });
    await slack().waitFor(() => botReplies(CHANNEL, parent.ts).length > 0, 30_000, 'the answer');
    // Ask something after the retries and wait for it: had a retry been answered, it would be in by then.
    await reply(CHANNEL, parent.ts, 'last 7 days');
    const answers = botReplies(CHANNEL, parent.ts);
    expect(answers).toHaveLength(2);
    expect(firstLine(answers[0])).toContain('ANDROID');
  });

  it("ignores bots' messages, its own, and replies in threads it did not start: none is read or stored", async () => {
    const parent = await answer('impressions by country yesterday');
    const people = slack().say(CHANNEL, 'U_SOMEONE', 'lunch?');
    const repliesRead = slack().callsTo('conversations.replies').length;
    const posted = slack().callsTo('chat.postMessage').length;
    const ignored = [
      { ...slack().say(CHANNEL, 'U_OTHERBOT', 'only iOS', { threadTs: parent.ts }), bot_id: 'B_OTHER' },
      {
        ...slack().say(CHANNEL, 'U_OTHERBOT', 'only iOS', { threadTs: parent.ts }),
        subtype: 'bot_message',
        bot_id: 'B_OTHER',
      },
      slack().say(CHANNEL, 'U_BOT', 'only iOS', { threadTs: parent.ts }),
      slack().say(CHANNEL, ASKER, 'only iOS', { threadTs: String(people.ts) }),
      slack().say(CHANNEL, ASKER, 'spend by country yesterday'),
      { ...slack().say(CHANNEL, ASKER, 'only iOS', { threadTs: parent.ts }), subtype: 'message_changed' },
    ];
    for (const event of ignored) expect((await bot().event(event)).status).toBe(200);
    // A reply that is answered, sent last: once it is in, the ignored ones had their turn.
    await reply(CHANNEL, parent.ts, 'top 2');
    expect(slack().callsTo('conversations.replies').length).toBe(repliesRead + 1);
    expect(slack().callsTo('chat.postMessage').length).toBe(posted + 1);
    for (const event of ignored) {
      expect(bot().bot.store.runs.findByIdempotencyKey(`slack:msg:${event.channel}:${event.ts}`)).toBeUndefined();
    }
  });

  it('a parent with replies carries thread_ts === ts in the history, as Slack fills it', async () => {
    const parent = await answer('spend by source yesterday');
    await reply(CHANNEL, parent.ts, 'only iOS');
    const history = await fetch(`${slack().apiUrl}conversations.history`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer xoxb-test-token' },
      body: new URLSearchParams({ channel: CHANNEL, include_all_metadata: 'true' }).toString(),
    }).then((r) => r.json() as Promise<{ messages: Array<{ ts: string; thread_ts?: string }> }>);
    expect(history.messages.find((m) => m.ts === parent.ts)?.thread_ts).toBe(parent.ts);
  });

  it('Watch this: the answer button opens a prefilled rule modal; saving stores a watch that /pivot alerts lists and unwatch removes', async () => {
    const before = slack().messages.length;
    await bot().command('installs by country yesterday', { user: ADMIN });
    await slack().waitFor(
      () =>
        slack()
          .messages.slice(before)
          .some((m) => m.metadata?.event_type === 'pivotbot_answer'),
      30_000,
      'the answer',
    );
    const answered = slack()
      .messages.slice(before)
      .find((m) => m.metadata?.event_type === 'pivotbot_answer');
    const buttons = (
      (answered?.blocks ?? []) as Array<{ type: string; elements?: Array<{ action_id?: string; value?: string }> }>
    )
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? []);
    const watch = buttons.find((b) => b.action_id === 'pivot_watch_this');
    expect(watch).toBeDefined();

    const views = slack().views.size;
    await bot().click('pivot_watch_this', JSON.parse(String(watch?.value)), { channel: CHANNEL, user: ADMIN });
    await slack().waitFor(() => slack().views.size > views, 20_000, 'the watch modal');
    const [viewId, opened] = [...slack().views.entries()].at(-1) as [string, { view: Record<string, unknown> }];
    expect(opened.view.callback_id).toBe('pivot_watch');
    const blocks = text(opened.view.blocks);
    expect(blocks).toContain('"initial_option":{"text":{"type":"plain_text","text":"installs"},"value":"installs"}');
    expect(blocks).toContain('"value":"entity"');
    expect(blocks).toContain('Unusual for the weekday');

    const values = {
      watch_name: { value: { type: 'plain_text_input', value: 'installs-by-country' } },
      watch_metric: { value: { type: 'static_select', selected_option: { value: 'installs' } } },
      watch_on: { value: { type: 'static_select', selected_option: { value: 'entity' } } },
      watch_rule: { value: { type: 'static_select', selected_option: { value: 'below' } } },
      watch_threshold: { value: { type: 'number_input', value: '' } },
      watch_time: { value: { type: 'timepicker', selected_time: '08:30' } },
    };
    // A threshold rule without its value is refused in the ack, under the field.
    const refused = await bot().submitView(viewId, values, { user: ADMIN });
    expect(await refused.text()).toContain('watch_threshold');
    const saved = await bot().submitView(
      viewId,
      { ...values, watch_threshold: { value: { type: 'number_input', value: '50' } } },
      { user: ADMIN },
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).not.toContain('errors');
    const stored = bot()
      .bot.store.subscriptions.list()
      .find((s) => s.report === 'watch-installs-by-country');
    expect(stored?.query).toBe('installs by country yesterday');
    expect(stored?.watch).toEqual({
      id: 'installs-by-country',
      metric: 'installs',
      on: 'entity',
      below: 50,
      check: { cron: '30 8 * * *', timezone: 'UTC' },
    });

    const alerts = await bot().command('alerts', { user: ADMIN });
    expect(await bot().waitForHook(alerts.hook)).toContain(
      '`installs-by-country` (Watch: installs by country yesterday)',
    );

    const removed = await bot().command('unwatch installs-by-country', { user: ADMIN });
    expect(await bot().waitForHook(removed.hook)).toContain('no longer watched');
    expect(
      bot()
        .bot.store.subscriptions.list()
        .some((s) => s.report === 'watch-installs-by-country'),
    ).toBe(false);
  });
});
