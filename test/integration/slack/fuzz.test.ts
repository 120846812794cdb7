import fc from 'fast-check';
import { useBotHarness } from '../../support/botHarness.js';
import { asWire, postSigned, slashCommandBody } from '../../support/slackRequests.js';

/** Words people type: verbs, metrics, dimensions, clause words, ranges, values, noise. */
const WORDS = [
  'help',
  'list',
  'show',
  'status',
  'alerts',
  'subscribe',
  'unsubscribe',
  'postbacks',
  'run',
  'spend',
  'installs',
  'instals',
  'clicks',
  'impressions',
  'ctr',
  'installsCpi',
  'eventsRoas',
  'events',
  'countryCode',
  'campaign',
  'siteBundle',
  'city',
  'date:daily',
  'date:hourly',
  'appPlatform',
  'by',
  'where',
  'and',
  'in',
  'having',
  'top',
  'tz',
  'csv',
  'async',
  'as',
  'compare',
  '=',
  '>',
  ',',
  '(',
  ')',
  'yesterday',
  'today',
  'last',
  '7',
  'days',
  'hours',
  'this',
  'week',
  'month',
  '2026-11-01..2026-11-08',
  'US',
  'BR',
  '(US,BR)',
  'appId=101',
  'app:101',
  'keys:conversion_value',
  'America/Sao_Paulo',
  'daily-kpi',
  'nope',
  '#general',
  '<#C0GENERAL1|general>',
  'at',
  '09:00',
  '"0 9 * * *"',
  '💸',
  "'",
  '"',
  '\\',
  '`',
];

/** Queries of the right shape, sometimes with a clause too many: these reach the Reporting Service. */
const shaped = fc
  .tuple(
    fc.subarray(['spend', 'installs', 'clicks', 'impressions', 'ctr', 'installsCpi'], { minLength: 1 }),
    fc.constantFrom('countryCode', 'campaign', 'appPlatform', 'date:daily', 'source'),
    fc.constantFrom('yesterday', 'last 7 days', 'this week', 'last 3 days'),
    fc.constantFrom('', 'top 5 by spend', 'where countryCode in (US,BR)', 'having impressions > 1000', 'csv', 'top'),
  )
  .map(([metrics, by, range, extra]) => `${metrics.join(' ')} by ${by} ${range} ${extra}`.trim());

/** Named reports run by name, with good, odd and no ranges: these post digests in the channel. */
const runs = fc
  .tuple(
    fc.constantFrom('daily-kpi', 'country-breakdown', 'ctv-and-mobile', 'weekly-campaign-review', 'daly-kpi'),
    fc.constantFrom('', 'yesterday', 'last 3 days', 'last 400 days', 'tomorrow', '2026-11-01..2026-11-08'),
  )
  .map(([report, range]) => `run ${report} ${range}`.trim());

const text = fc.oneof(
  { weight: 3, arbitrary: shaped },
  { weight: 1, arbitrary: runs },
  { weight: 5, arbitrary: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' ')) },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  // Typed text above is sent as Slack sends it (slashCommandBody encodes it); this arm is any wire
  // text at all, Slack's markup or not, for the decoder at the door.
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }).map(asWire) },
);

describe('1,000 fuzzed /pivot texts', () => {
  // 1,000 commands arrive within seconds: a queue that may hold them all, so the fuzz reaches the
  // runs instead of mostly the "busy" answer (queueAndClicks.test.ts covers that one).
  const bot = useBotHarness({ env: { PIVOTBOT_MAX_QUEUED: '1000' } });

  it('acknowledges every one and answers each with a message or a private reply, without crashing', async () => {
    const texts = fc.sample(text, { numRuns: 1_000, seed: 20261121 });
    // `run <report>` is fuzzed too (a digest names no asker): each command comes from a channel of
    // its own, so an answer in that channel is matched to it.
    expect(
      texts.filter((t) => typeof t === 'string' && /^run (daily-kpi|country-breakdown)/.test(t)).length,
    ).toBeGreaterThan(20);
    const channelOf = (i: number) => `C0FUZZ${i}X`;
    for (let i = 0; i < texts.length; i++) {
      bot().slack.knownChannels.set(channelOf(i), `fuzz-${i}`);
      bot().slack.memberOf.add(channelOf(i));
    }
    const statuses: number[] = [];
    for (let start = 0; start < texts.length; start += 25) {
      const batch = texts.slice(start, start + 25).map(async (t, j) => {
        const i = start + j;
        const body = slashCommandBody({
          text: t,
          userId: `U0FUZZ${i}X`,
          channelId: channelOf(i),
          responseUrl: bot().slack.responseUrl(`fuzz-${i}`),
          triggerId: `trigger-fuzz-${i}`,
        });
        const response = await postSigned(bot().eventsUrl, body, { signingSecret: 'test-signing-secret-value' });
        statuses.push(response.status);
      });
      await Promise.all(batch);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // Which commands got an answer: a private reply at their hook, a message in their channel, an
    // async job they started, or (`/pivot` alone) the query builder opened with their trigger id.
    // One pass over what Slack received (this runs every 25 ms).
    const answeredCount = () => {
      const seen = new Set<number>();
      for (const hook of bot().slack.hooks) {
        const match = /^\/hooks\/fuzz-(\d+)$/.exec(hook.path);
        if (match) seen.add(Number(match[1]));
      }
      for (const call of bot().slack.callsTo('chat.postMessage')) {
        const match = /^C0FUZZ(\d+)X$/.exec(String(call.args.channel));
        if (match) seen.add(Number(match[1]));
      }
      for (const call of bot().slack.callsTo('views.open')) {
        const match = /^trigger-fuzz-(\d+)$/.exec(String(call.args.trigger_id));
        if (match) seen.add(Number(match[1]));
      }
      for (const job of bot().bot.store.jobs.list()) {
        const match = /^U0FUZZ(\d+)X$/.exec(job.requester);
        if (match) seen.add(Number(match[1]));
      }
      return seen.size;
    };
    await bot().slack.waitFor(() => answeredCount() === texts.length, 120_000, 'an answer to every fuzzed command');

    // The mix exercises both paths: results posted in the channel and private replies.
    const posted = bot().slack.callsTo('chat.postMessage').length;
    const replied = bot().slack.hooks.filter((x) => x.path.startsWith('/hooks/fuzz-')).length;
    console.log(`fuzz: ${posted} channel posts, ${replied} private replies`);
    expect(posted).toBeGreaterThan(10);
    expect(replied).toBeGreaterThan(100);

    // Private replies are sensible: each is help, a suggestion, a refusal, or an explained error; none is internal.
    const internal = bot().slack.hooks.filter((x) => JSON.stringify(x.body).includes('INTERNAL'));
    expect(internal.map((x) => x.body)).toEqual([]);
    const health = await fetch(`http://127.0.0.1:${bot().bot.port}/healthz`);
    expect(health.status).toBe(200);
  }, 180_000);
});
