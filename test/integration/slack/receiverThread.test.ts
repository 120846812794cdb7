/**
 * The receiver thread: Slack is acknowledged by a worker thread, so an ack never waits for the
 * bot's own thread. These tests block the bot's thread for real (`execFileSync` runs a separate
 * Node process that plays Slack while this thread waits) and check what still answers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BotHarness, receiverThreadEntry, SIGNING_SECRET } from '../../support/botHarness.js';
import { signedHeaders, slashCommandBody } from '../../support/slackRequests.js';
import { recordingLogger } from '../../support/storeTestKit.js';

/**
 * Sends one HTTP request from another process while this thread (the bot's) is blocked, and
 * returns the status and body it got.
 */
function requestWhileBlocked(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): { status: number; body: string; ms: number } {
  const script = `
    const started = Date.now();
    const response = await fetch(${JSON.stringify(url)}, ${JSON.stringify(init)});
    const body = await response.text();
    process.stdout.write(JSON.stringify({ status: response.status, body, ms: Date.now() - started }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return JSON.parse(out) as { status: number; body: string; ms: number };
}

function signedCommand(text: string, responseUrl: string): { headers: Record<string, string>; body: string } {
  const body = slashCommandBody({ text, responseUrl });
  return { body, headers: signedHeaders(body, { signingSecret: SIGNING_SECRET }) };
}

describe('the Slack receiver thread', () => {
  const recorded = recordingLogger();
  const harness = new BotHarness();
  beforeAll(async () => {
    await harness.start({ receiverThread: receiverThreadEntry(), logger: recorded.logger });
  });
  afterAll(async () => {
    await harness.stop();
  });
  const posts = () => harness.slack.callsTo('chat.postMessage');

  it("acknowledges a command while the bot's thread is blocked, and runs it once the thread is free", async () => {
    const before = posts().length;
    const command = signedCommand('spend by countryCode yesterday', harness.slack.responseUrl('blocked'));
    // This whole call blocks the bot's thread: only the receiver thread can answer.
    const answer = requestWhileBlocked(harness.eventsUrl, { method: 'POST', ...command });
    expect(answer.status).toBe(200);
    expect(posts().length).toBe(before);
    await harness.slack.waitFor(() => posts().length > before, 20_000, 'the result after the thread was free');
    expect(JSON.stringify(posts()[before]?.args.blocks)).toContain('countryCode');
  });

  it("answers /healthz with 503 when the bot's thread does not answer, and 200 again once it does", async () => {
    const blocked = requestWhileBlocked(`http://127.0.0.1:${harness.bot.port}/healthz`);
    expect(blocked.status).toBe(503);
    expect(JSON.parse(blocked.body)).toEqual({ ok: false, error: expect.stringContaining('did not answer') });
    const free = await fetch(`http://127.0.0.1:${harness.bot.port}/healthz`);
    expect(free.status).toBe(200);
    expect(await free.json()).toMatchObject({ ok: true, receiver: 'thread' });
  });

  it("sends Bolt's log lines to the bot's logger, without the signing secret", async () => {
    const body = slashCommandBody({ text: 'help', responseUrl: harness.slack.responseUrl('forged') });
    const forged = await fetch(harness.eventsUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-slack-signature': 'v0=0000',
      },
      body,
    });
    expect(forged.status).toBe(401);
    await harness.slack.waitFor(
      () => recorded.lines.some((l) => l.component === 'bolt' && String(l.msg).includes('verify')),
      5_000,
      "Bolt's warning",
    );
    const all = JSON.stringify(recorded.lines);
    expect(all).not.toContain(SIGNING_SECRET);
    expect(all).not.toContain('xoxb-test-token');
  });
});

describe('a receiver thread that dies', () => {
  const recorded = recordingLogger();
  const harness = new BotHarness();
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-receiver-'));
    // The real entry, which then crashes once (a marker file makes the restarted thread stay up).
    const entry = join(dir, 'crashingReceiver.mjs');
    const marker = join(dir, 'crashed');
    await writeFile(
      entry,
      `import { existsSync, writeFileSync } from 'node:fs';
       await import(${JSON.stringify(receiverThreadEntry().href)});
       if (!existsSync(${JSON.stringify(marker)})) {
         writeFileSync(${JSON.stringify(marker)}, 'crashed');
         setTimeout(() => { throw new Error('receiver crash for the test'); }, 200);
       }`,
    );
    await harness.start({ receiverThread: pathToFileURL(entry), logger: recorded.logger });
  });
  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is restarted on the same port and answers commands again', async () => {
    const port = harness.bot.port;
    await harness.slack.waitFor(
      () => recorded.lines.some((l) => String(l.msg).includes('listening again')),
      10_000,
      'the restart',
    );
    expect(recorded.lines.some((l) => l.level === 50 && String(l.msg).includes('receiver thread stopped'))).toBe(true);
    expect(harness.bot.port).toBe(port);
    const { response, hook } = await harness.command('help');
    expect(response.status).toBe(200);
    expect(await harness.waitForHook(hook)).toContain('/pivot list');
  });

  it('stops with the bot: the port is closed afterwards', async () => {
    const url = `http://127.0.0.1:${harness.bot.port}/healthz`;
    expect((await fetch(url)).status).toBe(200);
    await harness.bot.stop();
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('an error in the receiver thread', () => {
  const recorded = recordingLogger();
  const harness = new BotHarness();
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-receiver-'));
    // The real entry, then a rejection nobody handles, of one of our errors with a cause.
    const entry = join(dir, 'rejectingReceiver.mjs');
    const core = new URL('../../core/index.js', receiverThreadEntry()).href;
    await writeFile(
      entry,
      `await import(${JSON.stringify(receiverThreadEntry().href)});
       const { PivotbotError } = await import(${JSON.stringify(core)});
       const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
       Promise.reject(new PivotbotError('SLACK_REQUEST_FAILED', 'probe: the thread failed', {
         cause, retryable: true, details: { method: 'chat.postMessage' },
       }));`,
    );
    await harness.start({ receiverThread: pathToFileURL(entry), logger: recorded.logger });
  });
  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("reaches the bot's log whole: class, code, fields and cause, not only its message", async () => {
    const isProbe = (l: Record<string, unknown>) =>
      (l.err as { message?: unknown } | undefined)?.message === 'probe: the thread failed';
    await harness.slack.waitFor(() => recorded.lines.some(isProbe), 10_000, 'the thread error in the log');
    const line = recorded.lines.find(isProbe);
    expect(line).toMatchObject({
      level: 50,
      msg: 'receiver thread: unhandled rejection',
      err: {
        type: 'PivotbotError',
        code: 'SLACK_REQUEST_FAILED',
        retryable: true,
        details: { method: 'chat.postMessage' },
        cause: { type: 'Error', message: 'socket hang up', code: 'ECONNRESET' },
      },
    });
    expect(String((line?.err as { stack?: unknown } | undefined)?.stack)).toContain('rejectingReceiver.mjs');
    // The thread keeps receiving.
    const { response, hook } = await harness.command('help');
    expect(response.status).toBe(200);
    expect(await harness.waitForHook(hook)).toContain('/pivot list');
  });
});
