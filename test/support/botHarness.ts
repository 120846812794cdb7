import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningBot, startBot } from '../../src/cli/startBot.js';
import { type Logger, silentLogger } from '../../src/core/index.js';
import { ChartProcessRenderer } from '../../src/render/index.js';
import { type Faults, type PlantInput, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import type { RateLimitSettings } from '../../src/slackapi/index.js';
import type { AsyncJob } from '../../src/store/index.js';
import {
  blockActionBody,
  type ModalPayloadView,
  modalActionBody,
  postSigned,
  type SlackText,
  signedHeaders,
  slashCommandBody,
  viewSubmissionBody,
} from './slackRequests.js';
import { SlackTestServer } from './slackTestServer.js';

export const SIGNING_SECRET = 'test-signing-secret-value';
export const ADMIN = 'U0ADMIN1';

/**
 * The compiled receiver-thread entry: a worker thread runs JavaScript, so thread-mode tests use
 * the build that `npm test` makes before jest runs.
 */
export function receiverThreadEntry(): URL {
  return compiled('../../dist/src/slack/receiver/receiverThread.js');
}

/** The compiled chart-process entry (node runs JavaScript), from the build `npm test` makes first. */
export function chartProcessEntry(): URL {
  return compiled('../../dist/src/render/chartProcess.js');
}

function compiled(path: string): URL {
  const entry = new URL(path, import.meta.url);
  if (!existsSync(fileURLToPath(entry))) throw new Error(`${fileURLToPath(entry)} is missing: run npm run build first`);
  return entry;
}

/**
 * Everything an end-to-end Slack test needs, all real and on 127.0.0.1: the sandbox as the
 * Reporting Service, the Slack test server as the Web API, and the bot between them.
 */
export class BotHarness {
  slack!: SlackTestServer;
  sandbox!: RunningSandbox;
  bot!: RunningBot;
  dir!: string;
  private counter = 0;
  private concurrency: number | undefined;
  private clock: (() => Date) | undefined;
  private schedulerOptions: { maxWakeMs?: number } | undefined;
  private receiverThread: URL | false = false;
  private charts: ChartProcessRenderer | undefined;
  private extraEnv: Record<string, string | undefined> = {};
  private slackRateLimits: RateLimitSettings = { windowMs: 1000 };

  get eventsUrl(): string {
    return `http://127.0.0.1:${this.bot.port}/slack/events`;
  }

  async start(
    options: {
      faults?: Partial<Faults>;
      /** Planted causes the sandbox starts with (see docs/sandbox.md). */
      plants?: readonly PlantInput[];
      logger?: Logger;
      now?: Date;
      /**
       * The bot's clock (default the real one). A constant offset from the real clock, such as
       * `() => new Date(Date.now() + offset)`, keeps real timers and moves the calendar.
       */
      clock?: () => Date;
      /** The scheduler's longest sleep between wake-ups (default 30 s): shorter sees a new watch or a moved clock sooner. */
      scheduler?: { maxWakeMs?: number };
      concurrency?: number;
      /** Receive Slack in a worker thread running this compiled entry (default: the bot's own thread). */
      receiverThread?: URL | false;
      /** Draw charts in a child process, as production does (default: in this process). */
      chartProcess?: boolean;
      /** Variables added to (or, when undefined, removed from) the bot's environment. */
      env?: Record<string, string | undefined>;
      /** The rate limits the bot paces its Web API calls to (default: Slack's, per second instead of per minute). */
      slackRateLimits?: RateLimitSettings;
    } = {},
  ): Promise<this> {
    this.concurrency = options.concurrency;
    this.clock = options.clock;
    this.schedulerOptions = options.scheduler;
    this.receiverThread = options.receiverThread ?? false;
    if (options.chartProcess) this.charts = new ChartProcessRenderer(chartProcessEntry());
    this.extraEnv = options.env ?? {};
    if (options.slackRateLimits) this.slackRateLimits = options.slackRateLimits;
    this.dir = await mkdtemp(join(tmpdir(), 'pivotbot-bot-'));
    this.slack = await new SlackTestServer().start();
    this.sandbox = await startSandbox({
      port: 0,
      scale: 'small',
      ...(options.faults ? { faults: options.faults } : {}),
      ...(options.plants ? { plants: options.plants } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    await this.startBot(options.logger);
    return this;
  }

  /** Starts (or restarts) the bot on the same store, sandbox and Slack server. */
  async startBot(logger: Logger = silentLogger()): Promise<RunningBot> {
    this.bot = await this.launch(join(this.dir, 'work'), logger, {
      ...(this.concurrency ? { concurrency: this.concurrency } : {}),
      receiverThread: this.receiverThread,
      ...(this.charts ? { charts: this.charts } : {}),
    });
    return this.bot;
  }

  /**
   * Another replica beside the harness's bot: the same environment (so the same store when it is
   * PostgreSQL), a work folder of its own, Slack received and charts drawn in its own thread. The
   * caller stops it.
   */
  startReplica(name = 'other', logger: Logger = silentLogger()): Promise<RunningBot> {
    return this.launch(join(this.dir, `work-${name}`), logger, { receiverThread: false });
  }

  private launch(
    workDir: string,
    logger: Logger,
    own: Pick<Parameters<typeof startBot>[0], 'concurrency' | 'receiverThread' | 'charts'>,
  ): Promise<RunningBot> {
    return startBot({
      env: this.env(),
      logger,
      workDir,
      ...own,
      ...(this.clock ? { clock: this.clock } : {}),
      ...(this.schedulerOptions ? { scheduler: this.schedulerOptions } : {}),
      slackRetry: { retries: 3, minTimeout: 50, maxTimeout: 200, maxRetryTime: 20_000 },
      // Slack's per-minute limits per second, so tests that post hundreds of messages take seconds.
      slackRateLimits: this.slackRateLimits,
    });
  }

  env(): NodeJS.ProcessEnv {
    return {
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: this.slack.apiUrl,
      PORT: '0',
      REPORTING_AUTH_URL: this.sandbox.authUrl,
      REPORTING_GRAPHQL_URL: this.sandbox.graphqlUrl,
      REPORTING_CLIENT_ID: this.sandbox.clientId,
      REPORTING_CLIENT_SECRET: this.sandbox.clientSecret,
      PIVOTBOT_REPORTS_DIR: 'reports',
      PIVOTBOT_STORE: join(this.dir, 'store', 'pivotbot.json'),
      PIVOTBOT_ADMINS: ADMIN,
      PIVOTBOT_TIMEZONE: 'UTC',
      ...this.extraEnv,
    };
  }

  /**
   * Sends `/pivot <text>` signed, the text as Slack sends it (typed text encoded, `wire` text as is);
   * resolves to the HTTP response and the hook id its answers go to.
   */
  async command(
    text: SlackText,
    options: {
      user?: string;
      channel?: string;
      retryNum?: number;
      body?: string;
      triggerId?: string;
      smartQuotes?: boolean;
    } = {},
  ): Promise<{ response: Response; hook: string; body: string }> {
    const hook = `cmd-${++this.counter}`;
    const body =
      options.body ??
      slashCommandBody({
        text,
        responseUrl: this.slack.responseUrl(hook),
        ...(options.user ? { userId: options.user } : {}),
        ...(options.channel ? { channelId: options.channel } : {}),
        ...(options.triggerId ? { triggerId: options.triggerId } : {}),
        ...(options.smartQuotes ? { smartQuotes: true } : {}),
      });
    const response = await postSigned(this.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      ...(options.retryNum !== undefined ? { retryNum: options.retryNum } : {}),
    });
    return { response, hook: `/hooks/${hook}`, body };
  }

  /**
   * Sends a command that becomes an async job and resolves with that job once it is stored with
   * its progress message (the point a restart can resume it from).
   */
  async startAsyncJob(text = 'run site-bundle-quality'): Promise<AsyncJob> {
    await this.command(text);
    await this.slack.waitFor(
      () => this.bot.store.jobs.listActive().some((j) => j.threadTs !== undefined),
      20_000,
      'the stored job',
    );
    const job = this.bot.store.jobs.listActive().find((j) => j.threadTs !== undefined);
    if (!job) throw new Error('no stored async job');
    return job;
  }

  async click(
    actionId: string,
    value: unknown,
    options: { messageTs?: string; threadTs?: string; channel?: string; user?: string; home?: boolean } = {},
  ) {
    const hook = `act-${++this.counter}`;
    const body = blockActionBody({
      actionId,
      value: JSON.stringify(value),
      responseUrl: this.slack.responseUrl(hook),
      ...(options.messageTs ? { messageTs: options.messageTs } : {}),
      ...(options.threadTs ? { threadTs: options.threadTs } : {}),
      ...(options.channel ? { channelId: options.channel } : {}),
      ...(options.user ? { userId: options.user } : {}),
      ...(options.home ? { home: true } : {}),
    });
    const response = await postSigned(this.eventsUrl, body, { signingSecret: SIGNING_SECRET });
    return { response, hook: `/hooks/${hook}` };
  }

  /**
   * A modal as the test server holds it (opened or last updated by the bot), as an interaction
   * payload's view with `values` as its state.
   */
  modalView(viewId: string, values: Record<string, Record<string, unknown>>): ModalPayloadView {
    const stored = this.slack.views.get(viewId);
    if (!stored) throw new Error(`no modal ${viewId} was opened`);
    return {
      id: viewId,
      hash: stored.hash,
      callbackId: String(stored.view.callback_id),
      privateMetadata: String(stored.view.private_metadata ?? ''),
      values,
      blocks: (stored.view.blocks as unknown[]) ?? [],
    };
  }

  /** A change to a modal's input (`dispatch_action`), signed. */
  async modalAction(
    viewId: string,
    action: { actionId: string; blockId: string },
    values: Record<string, Record<string, unknown>>,
    options: { user?: string } = {},
  ): Promise<Response> {
    const body = modalActionBody({
      ...action,
      view: this.modalView(viewId, values),
      ...(options.user ? { userId: options.user } : {}),
    });
    return postSigned(this.eventsUrl, body, { signingSecret: SIGNING_SECRET });
  }

  /** A modal's submit button, signed; the response carries the ack (errors, or nothing). */
  async submitView(
    viewId: string,
    values: Record<string, Record<string, unknown>>,
    options: { user?: string } = {},
  ): Promise<Response> {
    const body = viewSubmissionBody({
      view: this.modalView(viewId, values),
      ...(options.user ? { userId: options.user } : {}),
    });
    return postSigned(this.eventsUrl, body, { signingSecret: SIGNING_SECRET });
  }

  /**
   * Sends a signed `event_callback`; a retry passes the first delivery's `eventId` and `retryNum`
   * (sent as X-Slack-Retry-Num, as Slack does).
   */
  async event(
    event: Record<string, unknown>,
    options: { eventId?: string; retryNum?: number } = {},
  ): Promise<Response> {
    return this.envelope(
      {
        token: 'x',
        team_id: 'T_TEST',
        api_app_id: 'A_PIVOT',
        type: 'event_callback',
        event_id: options.eventId ?? `Ev${++this.counter}`,
        event_time: Math.floor(Date.now() / 1000),
        event,
      },
      options,
    );
  }

  /**
   * Sends a whole Events API body signed, as Slack posts it (e.g. `eventCallback` or
   * `slackConnectEnvelope` of test/fixtures/slack-payloads.ts).
   */
  async envelope(envelope: Record<string, unknown>, options: { retryNum?: number } = {}): Promise<Response> {
    const body = JSON.stringify(envelope);
    return fetch(this.eventsUrl, {
      method: 'POST',
      headers: signedHeaders(body, {
        signingSecret: SIGNING_SECRET,
        contentType: 'application/json',
        ...(options.retryNum !== undefined ? { retryNum: options.retryNum } : {}),
      }),
      body,
    });
  }

  /** The private answers sent to a command's response_url. */
  hookBodies(hook: string): Array<{ text?: string; response_type?: string; blocks?: unknown }> {
    return this.slack.hooks.filter((h) => h.path === hook).map((h) => h.body as { text?: string });
  }

  async waitForHook(hook: string, timeoutMs = 20_000): Promise<string> {
    await this.slack.waitFor(() => this.slack.hooks.some((h) => h.path === hook), timeoutMs, `an answer at ${hook}`);
    return JSON.stringify(this.hookBodies(hook));
  }

  async stop(): Promise<void> {
    await this.bot?.stop();
    await this.charts?.close();
    await this.sandbox?.stop();
    await this.slack?.stop();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Starts a harness before the tests of the enclosing `describe` (or file) and stops it after;
 * the returned function gives the running harness.
 *
 * @example const bot = useBotHarness(); it('…', async () => { await bot().command('help'); });
 */
export function useBotHarness(options: Parameters<BotHarness['start']>[0] = {}): () => BotHarness {
  const harness = new BotHarness();
  beforeAll(async () => {
    await harness.start(options);
  });
  afterAll(async () => {
    await harness.stop();
  });
  return () => harness;
}
