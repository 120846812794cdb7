/**
 * The query-builder modal and "Schedule this" over real HTTP: signed slash commands and
 * interaction payloads to the bot, its views.open / views.update / chat.postMessage calls to the
 * Slack test server, the sandbox as the Reporting Service. Both ways the bot receives: in its own
 * thread (the sources), and with the compiled receiver thread, where a submission's verdict
 * crosses threads before the ack.
 */
import { QUERY_BLOCKS } from '../../../src/slack/app/queryModalFields.js';
import { SCHEDULE_BLOCKS } from '../../../src/slack/app/scheduleModal.js';
import { ADMIN, receiverThreadEntry, useBotHarness } from '../../support/botHarness.js';

type Values = Record<string, Record<string, unknown>>;

/** The state Slack sends for the builder's fields. */
function builderState(fields: {
  metrics?: string[];
  dimensions?: string[];
  range?: string;
  country?: string;
  top?: string;
}): Values {
  const options = (values: readonly string[] = []) => values.map((value) => ({ value }));
  return {
    [QUERY_BLOCKS.metrics]: {
      pivot_qm_metrics: { type: 'multi_static_select', selected_options: options(fields.metrics) },
    },
    [QUERY_BLOCKS.dimensions]: {
      pivot_qm_dimensions: { type: 'multi_static_select', selected_options: options(fields.dimensions) },
    },
    [QUERY_BLOCKS.range]: {
      pivot_qm_range: { type: 'static_select', selected_option: fields.range ? { value: fields.range } : null },
    },
    [QUERY_BLOCKS.country]: {
      [`pivot_qm_${QUERY_BLOCKS.country}`]: { type: 'plain_text_input', value: fields.country ?? null },
    },
    [QUERY_BLOCKS.top]: { [`pivot_qm_${QUERY_BLOCKS.top}`]: { type: 'plain_text_input', value: fields.top ?? null } },
  };
}

const lineOf = (view: Record<string, unknown> | undefined) =>
  JSON.stringify(((view?.blocks ?? []) as Array<{ block_id?: string }>).find((b) => b.block_id === QUERY_BLOCKS.line));

describe.each([
  ['in the bot thread', () => false as const],
  ['with a receiver thread', receiverThreadEntry],
])('the query-builder modal, %s', (_mode, receiverThread) => {
  const bot = useBotHarness({ receiverThread: receiverThread() });
  const posts = () => bot().slack.callsTo('chat.postMessage');
  let triggers = 0;

  /** `/pivot` alone: resolves to the opened view's id (and the command's response_url hook, in `hooks`). */
  const hooks = new Map<string, string>();
  async function open(text = '', channel?: string): Promise<string> {
    const triggerId = `trig-modal-${++triggers}-${Math.random().toString(36).slice(2)}`;
    const { response, hook } = await bot().command(text, { triggerId, ...(channel ? { channel } : {}) });
    expect(response.status).toBe(200);
    await bot().slack.waitFor(
      () =>
        bot()
          .slack.callsTo('views.open')
          .some((c) => c.args.trigger_id === triggerId),
      10_000,
      'views.open',
    );
    const entry = [...bot().slack.views.entries()].find(([, v]) => v.triggerId === triggerId);
    if (!entry) throw new Error('views.open failed');
    hooks.set(entry[0], hook);
    return entry[0];
  }

  const byLater = (call: { args: Record<string, unknown> }) => JSON.stringify(call.args.blocks).includes('U_LATER');
  /** The posts of the tests' own submissions (not the later queries'). */
  const ownPosts = () => posts().filter((call) => !byLater(call));
  /**
   * Waits for the result of a valid query submitted after the others (by U_LATER): what the bot
   * was going to post for the earlier submissions it has posted by then. Resolves to the posts
   * other than U_LATER's.
   */
  async function postsAfterALaterQuery() {
    const id = await open();
    await bot().submitView(id, builderState({ metrics: ['clicks'], dimensions: ['countryCode'], range: 'yesterday' }), {
      user: 'U_LATER',
    });
    await bot().slack.waitFor(() => posts().some(byLater), 60_000, 'the later query posted');
    return ownPosts();
  }

  it('opens with the command’s trigger_id: grouped pickers and the query line', async () => {
    const id = await open();
    const view = bot().slack.views.get(id)?.view as Record<string, unknown>;
    expect(view.callback_id).toBe('pivot_query_modal');
    expect(JSON.parse(String(view.private_metadata))).toEqual({
      channel: 'C0GENERAL1',
      responseUrl: expect.stringContaining(hooks.get(id) as string),
    });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('"option_groups"');
    expect(text).toContain('installsCpi (cpi');
    expect(text).toContain('Geography');
    expect(await open('new')).not.toBe(id);
    // Help stays at /pivot help.
    const { hook } = await bot().command('help');
    expect(await bot().waitForHook(hook)).toContain('/pivot list');
  });

  it('redraws the query line on a change (views.update with the view’s hash)', async () => {
    const id = await open();
    const hash = bot().slack.views.get(id)?.hash;
    const response = await bot().modalAction(
      id,
      { actionId: 'pivot_qm_dimensions', blockId: QUERY_BLOCKS.dimensions },
      builderState({
        metrics: ['spend', 'installsCpi'],
        dimensions: ['countryCode'],
        range: 'last 7 days',
        country: 'US, Brazil',
      }),
    );
    expect(response.status).toBe(200);
    await bot().slack.waitFor(
      () =>
        bot()
          .slack.callsTo('views.update')
          .some((c) => c.args.view_id === id),
      10_000,
      'views.update',
    );
    const update = bot()
      .slack.callsTo('views.update')
      .find((c) => c.args.view_id === id);
    expect(update?.args.hash).toBe(hash);
    expect(lineOf(bot().slack.views.get(id)?.view)).toContain(
      '/pivot spend, installsCpi by countryCode last 7 days where countryCode in (US, BR)',
    );
  });

  it('answers invalid fields in the ack with response_action errors keyed by block id, posting nothing', async () => {
    const id = await open();
    const before = ownPosts().length;
    // The errors are in the acknowledgement itself (its latency is bench/slack's figure).
    const response = await bot().submitView(id, builderState({ metrics: [], country: 'Narnia', top: 'ten' }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { response_action?: string; errors?: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(
      [QUERY_BLOCKS.country, QUERY_BLOCKS.metrics, QUERY_BLOCKS.top].sort(),
    );
    expect(body.errors?.[QUERY_BLOCKS.country]).toContain('Narnia');
    expect(await postsAfterALaterQuery()).toHaveLength(before);
  });

  it('runs a valid submission in the channel exactly like the typed query', async () => {
    const id = await open();
    const before = ownPosts().length;
    const response = await bot().submitView(
      id,
      builderState({ metrics: ['spend', 'installs'], dimensions: ['countryCode'], range: 'yesterday', top: '5' }),
      { user: 'U_BUILDER' },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    await bot().slack.waitFor(() => ownPosts().length > before, 60_000, 'the result');
    const message = ownPosts()[before];
    expect(message?.args.channel).toBe('C0GENERAL1');
    const blocks = JSON.stringify(message?.args.blocks);
    expect(blocks).toContain('U_BUILDER');
    expect(blocks).toContain('spend, installs by countryCode yesterday top 5');
    expect(blocks).toContain('pivot_schedule_this');
    // The same submission delivered twice (a Slack retry) runs once.
    await bot().submitView(
      id,
      builderState({ metrics: ['spend', 'installs'], dimensions: ['countryCode'], top: '5' }),
      {
        user: 'U_BUILDER',
      },
    );
    expect(await postsAfterALaterQuery()).toHaveLength(before + 1);
  });

  it('answers through the command’s response_url when opened in a channel the bot is not in', async () => {
    // A submission has no response_url, and chat.postEphemeral fails where the bot is not a member.
    const id = await open('', 'C0OUTSIDE1');
    await bot().submitView(id, builderState({ metrics: ['spend'], dimensions: ['countryCode'], range: 'yesterday' }), {
      user: 'U_BUILDER',
    });
    expect(await bot().waitForHook(hooks.get(id) as string)).toContain('/invite @pivotbot');
  });
});

describe('"Schedule this"', () => {
  const bot = useBotHarness();

  async function clickSchedule(user: string, query: string): Promise<{ hook: string; viewId?: string }> {
    const opened = bot().slack.callsTo('views.open').length;
    const { response, hook } = await bot().click('pivot_schedule_this', { reportId: 'adhoc', query }, { user });
    expect(response.status).toBe(200);
    if (user !== ADMIN) return { hook };
    await bot().slack.waitFor(() => bot().slack.callsTo('views.open').length > opened, 10_000, 'the schedule modal');
    const call = bot().slack.callsTo('views.open')[opened];
    const viewId = [...bot().slack.views.entries()].find(([, v]) => v.triggerId === call?.args.trigger_id)?.[0];
    return { hook, ...(viewId ? { viewId } : {}) };
  }

  const form = (name: string, extra: { days?: string[]; zone?: string; channel?: string } = {}): Values => ({
    [SCHEDULE_BLOCKS.name]: { name: { type: 'plain_text_input', value: name } },
    [SCHEDULE_BLOCKS.channel]: {
      channel: { type: 'conversations_select', selected_conversation: extra.channel ?? 'C0MARKET01' },
    },
    [SCHEDULE_BLOCKS.time]: { time: { type: 'timepicker', selected_time: '08:30' } },
    [SCHEDULE_BLOCKS.days]: {
      days: {
        type: 'checkboxes',
        selected_options: (extra.days ?? ['1', '2', '3', '4', '5']).map((value) => ({ value })),
      },
    },
    [SCHEDULE_BLOCKS.zone]: { zone: { type: 'plain_text_input', value: extra.zone ?? 'Europe/Berlin' } },
  });

  it('tells the clicker when the form could not open (a trigger_id Slack says expired)', async () => {
    bot().slack.fail('views.open', { error: 'expired_trigger_id' });
    const { hook, viewId } = await clickSchedule(ADMIN, 'spend by countryCode yesterday');
    expect(viewId).toBeUndefined();
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('The scheduling form did not open');
    expect(answer).toContain('3 seconds');
  });

  it('is refused to non-admins, privately', async () => {
    const { hook } = await clickSchedule('U_ALICE', 'spend by countryCode yesterday');
    expect(await bot().waitForHook(hook)).toContain('Only pivotbot admins');
  });

  it('saves the query as a subscription the scheduler reads, refusing bad fields and taken names', async () => {
    const { viewId } = await clickSchedule(ADMIN, 'spend installs by countryCode yesterday');
    expect(viewId).toBeDefined();
    const id = viewId as string;
    const view = bot().slack.views.get(id)?.view as Record<string, unknown>;
    expect(view.callback_id).toBe('pivot_schedule_modal');
    expect(JSON.stringify(view.blocks)).toContain('"initial_conversation":"C0GENERAL1"');

    const bad = await bot().submitView(id, form('Spend By Country', { days: [], zone: 'Europe/Berln' }), {
      user: ADMIN,
    });
    const refused = (await bad.json()) as { response_action: string; errors: Record<string, string> };
    expect(refused.response_action).toBe('errors');
    expect(Object.keys(refused.errors).sort()).toEqual(
      [SCHEDULE_BLOCKS.days, SCHEDULE_BLOCKS.name, SCHEDULE_BLOCKS.zone].sort(),
    );
    expect(refused.errors[SCHEDULE_BLOCKS.zone]).toContain('Europe/Berlin');

    const ok = await bot().submitView(id, form('spend-by-country'), { user: ADMIN });
    expect(await ok.text()).toBe('');
    const saved = bot().bot.store.subscriptions.find('saved-spend-by-country', 'C0MARKET01');
    expect(saved).toMatchObject({
      query: 'spend installs by countryCode yesterday',
      cron: '30 8 * * 1,2,3,4,5',
      timezone: 'Europe/Berlin',
      createdBy: ADMIN,
    });

    const again = await bot().submitView(id, form('spend-by-country', { channel: 'C0GENERAL1' }), { user: ADMIN });
    expect(((await again.json()) as { errors: Record<string, string> }).errors[SCHEDULE_BLOCKS.name]).toContain(
      'taken',
    );

    // /pivot schedule and /pivot list show it.
    const schedule = await bot().command('schedule', { user: ADMIN });
    expect(await bot().waitForHook(schedule.hook)).toContain('saved-spend-by-country');
    const list = await bot().command('list');
    expect(await bot().waitForHook(list.hook)).toContain('saved-spend-by-country');
    // And App Home.
    const published = bot().slack.callsTo('views.publish').length;
    await bot().event({ type: 'app_home_opened', user: ADMIN, channel: 'D1', tab: 'home' });
    await bot().slack.waitFor(() => bot().slack.callsTo('views.publish').length > published, 10_000, 'App Home');
    expect(JSON.stringify(bot().slack.callsTo('views.publish')[published]?.args.view)).toContain(
      'saved-spend-by-country',
    );
  });

  it('posts a query saved through the modal on its schedule, like a report digest', async () => {
    const store = bot().bot.store;
    const { viewId } = await clickSchedule(ADMIN, 'spend by appPlatform yesterday');
    const ok = await bot().submitView(viewId as string, form('every-two', { channel: 'C0GENERAL1' }), { user: ADMIN });
    expect(await ok.text()).toBe('');
    const saved = store.subscriptions.find('saved-every-two', 'C0GENERAL1');
    expect(saved).toMatchObject({ query: 'spend by appPlatform yesterday', createdBy: ADMIN });
    // Its 08:30 is hours away: the same record, saved again with a seconds cron, is the scheduler's
    // real path in seconds (saving again replaces a subscription's timing).
    const { at: _at, cron: _cron, ...record } = saved as NonNullable<typeof saved>;
    await store.subscriptions.add({ ...record, cron: '*/2 * * * * *', timezone: 'UTC' });
    // The scheduler re-reads subscriptions at least every 30 s; a tick now sees it at once.
    await bot().bot.scheduler.tick();
    const digests = () =>
      bot().slack.messages.filter(
        (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.report === 'saved-every-two',
      );
    await bot().slack.waitFor(() => digests().length >= 1, 20_000, 'the saved query digest');
    const text = JSON.stringify(digests()[0]?.blocks);
    expect(text).toContain('appPlatform');
    expect(text).toContain('Saved query: spend by appPlatform yesterday');
    await store.subscriptions.remove('saved-every-two', 'C0GENERAL1');
  }, 40_000);
});
