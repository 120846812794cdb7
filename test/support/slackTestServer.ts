import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { limitFor } from '../../src/slackapi/rateLimits.js';
import { type SlackText, wireTextOf } from './slackRequests.js';
import { WebSocketPeer } from './webSocketPeer.js';

/** One Web API call as the server saw it: the method and its arguments (form or JSON, decoded). */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token: string | undefined;
  at: number;
  /** True when the rate-limit mode answered this call 429. */
  limited?: boolean;
  /** The Slack error it was answered with (`ok: false`), other than a fault set with `fail`. */
  error?: string;
}

/** A response_url POST, or an upload to an upload URL. */
export interface HookCall {
  path: string;
  body: unknown;
  bytes: number;
}

export interface Fault {
  /** HTTP status to answer (429 carries Retry-After). */
  status?: number;
  /** A Slack error (`not_in_channel`, `channel_not_found`, `invalid_auth`…), answered with HTTP 200. */
  error?: string;
  retryAfterSeconds?: number;
  /** How many calls the fault applies to (default 1). */
  times?: number;
  /** Only calls whose arguments match (others pass through and leave the fault waiting). */
  where?: (args: Record<string, unknown>) => boolean;
}

/** The DM channel between a test user and the bot (the app's Messages tab). */
export const BOT_DM = 'D0BOTDM001';

/** The id of the bot's DM with `user` that `conversations.open` answers: `D` and the user id's tail. */
export const dmOf = (user: string): string => `D${user.slice(1).replace(/_/g, '')}DM`;

/** An answer the server holds back (`hold`): `reached` once the call came in, sent on `release()`. */
export interface HeldAnswer {
  reached: Promise<SlackCall>;
  release(): void;
}

/** Slack message metadata as the bot sent it. */
export interface StoredMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

export interface StoredMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown;
  /** A reply's parent (a parent itself has none here; `conversations.history` adds Slack's `thread_ts`). */
  threadTs?: string;
  /** A reply posted with `reply_broadcast`: also shown in the channel's history. */
  broadcast?: boolean;
  metadata?: StoredMetadata;
  /** A person's message (`say`): posted by this user, not by the bot. */
  user?: string;
}

/**
 * Slack's rate limits, enforced: each method's calls per window (its tier in
 * src/slackapi/rateLimits.ts unless `perMethod` says otherwise) and chat.postMessage's calls per
 * channel per window. A call over a limit is answered 429 with `Retry-After` (whole seconds, at
 * least 1) until the oldest call in the window leaves it, as a sliding window.
 */
export interface ServerRateLimits {
  /** The window (Slack: 60 000 ms; tests use about 1 000). */
  windowMs: number;
  /** Calls per window for these methods, replacing their tier's count. */
  perMethod?: Record<string, number>;
  /** chat.postMessage calls per window per channel (default: the table's, 60). */
  perChannel?: number;
}

export interface SlackTestServerOptions {
  /** The server's clock for message timestamps (default Date.now). */
  now?: () => number;
  rateLimits?: ServerRateLimits;
}

/**
 * A Slack-compatible Web API test server on 127.0.0.1: answers the methods the bot calls
 * (auth.test, chat.postMessage/update/postEphemeral, views.publish, the files upload-v2 flow,
 * conversations.info, .list, .history and .replies, response_url hooks), records every call, and answers 429, 5xx
 * or Slack errors on demand. Messages keep the `metadata` they were posted or updated with, and
 * `conversations.history` returns it with `include_all_metadata`. Threads read as in Slack: a parent
 * with replies carries `thread_ts` (its own ts), `reply_count` and `latest_reply` in the history,
 * where only replies posted with `reply_broadcast` show; `conversations.replies` gives the parent,
 * then the replies oldest first; `oldest`/`latest` are exclusive unless `inclusive`. In rate-limit mode
 * (`rateLimits`, `enforceRateLimits`) it answers 429 with Retry-After as Slack's limits would.
 * Point the bot at `apiUrl` through SLACK_API_URL. It also plays Socket Mode:
 * `apps.connections.open` (with an `xapp-` token) hands out a WebSocket on this server, which
 * says hello and carries the envelopes a test sends with `sendEnvelope`.
 */
export class SlackTestServer {
  readonly calls: SlackCall[] = [];
  readonly hooks: HookCall[] = [];
  readonly uploads: HookCall[] = [];
  readonly messages: StoredMessage[] = [];
  /**
   * Private channels. Like Slack, one the bot is not in is invisible to it: every call naming it
   * answers channel_not_found (conversations.info included), and conversations.list leaves it out.
   */
  readonly privateChannels = new Set<string>();
  /** Archived channels: conversations.info says `is_archived`, chat.postMessage answers is_archived. */
  readonly archivedChannels = new Set<string>();
  /** Channels the bot is a member of; posting elsewhere answers not_in_channel. */
  readonly memberOf = new Set<string>(['C0GENERAL1', 'C0MARKET01', BOT_DM]);
  /** Users' profile time zones (`users.info`); others are UTC. */
  readonly userZones = new Map<string, string>();
  readonly knownChannels = new Map<string, string>([
    ['C0GENERAL1', 'general'],
    ['C0MARKET01', 'marketing'],
    ['C0OUTSIDE1', 'outside'],
    [BOT_DM, 'direct message'],
  ]);
  private readonly faults = new Map<string, Fault[]>();
  private readonly holds: Array<{
    method: string;
    where: (args: Record<string, unknown>) => boolean;
    hold: HeldAnswer;
    reached: (call: SlackCall) => void;
  }> = [];
  private readonly waiters: Array<{ test: () => boolean; resolve: () => void }> = [];
  private readonly sockets = new Set<Socket>();
  /** Files shared into threads (`files.completeUploadExternal` with `thread_ts`), shown in `conversations.replies`. */
  readonly fileShares: Array<{ channel: string; threadTs: string; ts: string; files: unknown[] }> = [];
  /** Socket Mode connections the bot opened, oldest first. */
  readonly socketConnections: WebSocketPeer[] = [];
  private readonly envelopeAcks = new Map<string, (ack: Record<string, unknown>) => void>();
  private envelopeCounter = 0;
  private server: Server | undefined;
  private lastTsMicros = 0n;
  private fileCounter = 0;
  /** Modals opened (views.open) and their latest version (views.update), by view id. */
  readonly views = new Map<string, { view: Record<string, unknown>; hash: string; triggerId: string }>();
  private viewCounter = 0;
  private readonly now: () => number;
  /** How far Slack's clock is from the bot's: message ts are stamped with `now() + clockSkewMs`. */
  clockSkewMs = 0;
  /**
   * Like Slack, which processes uploads in the background: for this long after an upload completes,
   * a message whose image block shows the file is refused with `invalid_blocks` (default 0: ready at once).
   */
  fileProcessingMs = 0;
  private readonly fileReadyAt = new Map<string, number>();
  private rateLimits: ServerRateLimits | undefined;
  /** Accepted calls per rate-limit key (method, or method and channel), oldest first. */
  private readonly windows = new Map<string, number[]>();
  baseUrl = '';

  constructor(options: SlackTestServerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.rateLimits = options.rateLimits;
  }

  /** Turns the rate-limit mode on with these limits, or off with `undefined`; starts empty windows. */
  enforceRateLimits(limits: ServerRateLimits | undefined): this {
    this.rateLimits = limits;
    this.windows.clear();
    return this;
  }

  /** Calls the rate-limit mode answered 429, per method. */
  rateLimited(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const call of this.calls) if (call.limited) counts[call.method] = (counts[call.method] ?? 0) + 1;
    return counts;
  }

  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  /** A response_url the bot will POST to; its calls land in `hooks`. */
  responseUrl(id = 'cmd'): string {
    return `${this.baseUrl}/hooks/${id}`;
  }

  /** Makes the next call(s) of `method` fail as described. */
  fail(method: string, fault: Fault): this {
    const list = this.faults.get(method) ?? [];
    for (let i = 0; i < (fault.times ?? 1); i++) list.push(fault);
    this.faults.set(method, list);
    return this;
  }

  /**
   * Holds Slack's answer to the next call of `method` matching `where`: the call takes effect at
   * once (a message is stored, as Slack would have it), but its answer is sent only on `release()`.
   * For a test that acts on the bot between its request and Slack's answer, without racing it.
   */
  hold(method: string, where: (args: Record<string, unknown>) => boolean = () => true): HeldAnswer {
    let reached: (call: SlackCall) => void = () => undefined;
    const hold: HeldAnswer = {
      reached: new Promise<SlackCall>((resolve) => {
        reached = resolve;
      }),
      release: () => undefined,
    };
    this.holds.push({ method, where, hold, reached });
    return hold;
  }

  callsTo(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /**
   * Resolves once `test` holds, checked after every request and every 25 ms (for conditions on
   * state outside this server, like the bot's store), or rejects after `timeoutMs`.
   */
  waitFor(test: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        const index = this.waiters.findIndex((w) => w.resolve === done);
        if (index >= 0) this.waiters.splice(index, 1);
        if (error) reject(error);
        else resolve();
      };
      const done = () => finish();
      const timer = setTimeout(
        () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
        timeoutMs,
      );
      const poll = setInterval(() => {
        if (test()) finish();
      }, 25);
      this.waiters.push({ test, resolve: done });
    });
  }

  /**
   * Sends an envelope (`slash_commands`, `interactive`, `events_api`) over the newest open Socket
   * Mode connection, or the open one at index `connection` (oldest first: several bots, each with
   * its own, as Slack spreads events over them); resolves with the bot's acknowledgement and how
   * long it took. `retryAttempt` marks it as Slack's redelivery of an unacknowledged envelope.
   */
  async sendEnvelope(
    type: 'slash_commands' | 'interactive' | 'events_api',
    payload: Record<string, unknown>,
    timeoutMs = 5_000,
    options: { connection?: number; retryAttempt?: number } = {},
  ): Promise<{ ack: Record<string, unknown>; ms: number }> {
    const open = this.socketConnections.filter((c) => c.isOpen);
    const peer = options.connection === undefined ? open.at(-1) : open[options.connection];
    if (!peer) throw new Error('no open Socket Mode connection');
    const envelopeId = `env-${++this.envelopeCounter}`;
    const started = performance.now();
    const acked = new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.envelopeAcks.delete(envelopeId);
        reject(new Error(`no ack for ${type} envelope ${envelopeId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.envelopeAcks.set(envelopeId, (ack) => {
        clearTimeout(timer);
        resolve(ack);
      });
    });
    peer.sendText(
      JSON.stringify({
        envelope_id: envelopeId,
        type,
        payload,
        accepts_response_payload: type !== 'events_api',
        ...(options.retryAttempt === undefined ? {} : { retry_attempt: options.retryAttempt, retry_reason: 'timeout' }),
      }),
    );
    const ack = await acked;
    return { ack, ms: performance.now() - started };
  }

  /** Asks the bot to reconnect, as Slack does every few hours (`disconnect`, `refresh_requested`). */
  requestReconnect(): void {
    const peer = [...this.socketConnections].reverse().find((c) => c.isOpen);
    peer?.sendText(JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'test' } }));
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.route(req, res, Buffer.concat(chunks));
        } catch (error) {
          res.writeHead(500).end(String(error));
        }
        this.checkWaiters();
      });
    });
    this.server.on('upgrade', (req, socket) => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/socket') {
        socket.destroy();
        return;
      }
      const peer = WebSocketPeer.accept(req, socket);
      peer.onText((text) => {
        const ack = parseJson(text) as Record<string, unknown> | undefined;
        const id = typeof ack?.envelope_id === 'string' ? ack.envelope_id : undefined;
        if (ack && id) {
          this.envelopeAcks.get(id)?.(ack);
          this.envelopeAcks.delete(id);
        }
      });
      this.socketConnections.push(peer);
      peer.sendText(
        JSON.stringify({
          type: 'hello',
          num_connections: this.socketConnections.filter((c) => c.isOpen).length,
          connection_info: { app_id: 'A_PIVOT' },
          debug_info: { host: 'test', approximate_connection_time: 18060 },
        }),
      );
      this.checkWaiters();
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private checkWaiters(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.test()) waiter.resolve();
    }
  }

  private route(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/hooks/')) {
      this.hooks.push({ path, body: parseJson(body.toString('utf8')), bytes: body.length });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (path.startsWith('/upload/')) {
      this.uploads.push({ path, body: undefined, bytes: body.length });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK - uploaded');
      return;
    }
    if (!path.startsWith('/api/')) {
      res.writeHead(404).end();
      return;
    }
    const method = path.slice('/api/'.length);
    const args = decodeArgs(req.headers['content-type'] ?? '', body.toString('utf8'));
    const auth = req.headers.authorization;
    const token = typeof auth === 'string' ? auth.replace(/^Bearer /, '') : (args.token as string | undefined);
    const call: SlackCall = { method, args, token, at: Date.now() };
    this.calls.push(call);

    const waiting = this.faults.get(method) ?? [];
    const index = waiting.findIndex((f) => f.where === undefined || f.where(call.args));
    const fault = index < 0 ? undefined : waiting.splice(index, 1)[0];
    if (fault) {
      if (fault.status !== undefined) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (fault.status === 429) headers['retry-after'] = String(fault.retryAfterSeconds ?? 1);
        res
          .writeHead(fault.status, headers)
          .end(JSON.stringify({ ok: false, error: fault.status === 429 ? 'ratelimited' : 'internal_error' }));
        return;
      }
      json(res, { ok: false, error: fault.error ?? 'unknown_error' });
      return;
    }
    const retryAfter = this.overLimit(method, args);
    if (retryAfter !== undefined) {
      call.limited = true;
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) })
        .end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    // Socket Mode's connection call takes the app-level token; everything else the bot token.
    const tokenPrefix = method === 'apps.connections.open' ? 'xapp-' : 'xoxb-';
    if (token !== undefined && !token.startsWith(tokenPrefix)) {
      json(res, { ok: false, error: 'invalid_auth' });
      return;
    }
    const answer = this.answer(method, args);
    if (answer.ok === false) call.error = String(answer.error);
    const held = this.holds.findIndex((h) => h.method === method && h.where(args));
    if (held >= 0) {
      const [{ hold, reached }] = this.holds.splice(held, 1) as [(typeof this.holds)[number]];
      hold.release = () => {
        if (!res.destroyed) json(res, answer);
      };
      reached(call);
      return;
    }
    json(res, answer);
  }

  private answer(method: string, args: Record<string, unknown>): Record<string, unknown> {
    switch (method) {
      case 'apps.connections.open':
        return { ok: true, url: `${this.baseUrl.replace(/^http/, 'ws')}/socket` };
      case 'auth.test':
        return {
          ok: true,
          url: 'https://test.slack.com/',
          team: 'Test',
          user: 'pivotbot',
          team_id: 'T_TEST',
          user_id: 'U_BOT',
          bot_id: 'B_BOT',
        };
      case 'chat.postMessage': {
        if (this.showsUnprocessedFile(args.blocks)) return { ok: false, error: 'invalid_blocks' };
        const channel = this.resolveChannel(String(args.channel ?? ''));
        if (!this.sees(channel)) return { ok: false, error: 'channel_not_found' };
        if (!this.memberOf.has(channel)) return { ok: false, error: 'not_in_channel' };
        if (this.archivedChannels.has(channel)) return { ok: false, error: 'is_archived' };
        const ts = this.nextTs();
        const message: StoredMessage = { channel, ts, text: String(args.text ?? ''), blocks: args.blocks };
        if (typeof args.thread_ts === 'string') {
          message.threadTs = args.thread_ts;
          if (isTrue(args.reply_broadcast)) message.broadcast = true;
        }
        const metadata = asMetadata(args.metadata);
        if (metadata) message.metadata = metadata;
        this.messages.push(message);
        return { ok: true, channel, ts, message: { ts, text: message.text } };
      }
      case 'chat.update': {
        if (this.showsUnprocessedFile(args.blocks)) return { ok: false, error: 'invalid_blocks' };
        const message = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = String(args.text ?? message.text);
        message.blocks = args.blocks ?? message.blocks;
        const metadata = asMetadata(args.metadata);
        if (metadata) message.metadata = metadata;
        return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
      }
      case 'conversations.history':
        return this.history(args);
      case 'conversations.replies':
        return this.replies(args);
      case 'chat.postEphemeral': {
        // Like Slack: only in a channel the bot can see and is in.
        const channel = this.resolveChannel(String(args.channel ?? ''));
        if (!this.sees(channel)) return { ok: false, error: 'channel_not_found' };
        if (!this.memberOf.has(channel)) return { ok: false, error: 'not_in_channel' };
        return { ok: true, message_ts: this.nextTs() };
      }
      case 'views.publish':
        return { ok: true, view: { id: 'V1', type: 'home' } };
      case 'views.open':
        return this.openView(args);
      case 'views.update':
        return this.updateView(args);
      case 'users.info': {
        const user = String(args.user ?? '');
        return { ok: true, user: { id: user, tz: this.userZones.get(user) ?? 'UTC' } };
      }
      case 'conversations.open': {
        // Like Slack: the bot's DM with one user, the same id each time; the bot is in it.
        const user = String(args.users ?? '');
        if (!/^[UW][A-Z0-9_]+$/.test(user) || user.includes(',')) return { ok: false, error: 'user_not_found' };
        const channel = dmOf(user);
        this.knownChannels.set(channel, 'direct message');
        this.memberOf.add(channel);
        return { ok: true, channel: { id: channel } };
      }
      case 'conversations.info': {
        // Like Slack with the manifest's scopes: channels:read and groups:read, no im:read.
        const channel = String(args.channel ?? '');
        if (!this.sees(channel)) return { ok: false, error: 'channel_not_found' };
        if (channel.startsWith('D')) return { ok: false, error: 'missing_scope', needed: 'im:read' };
        const isPrivate = this.privateChannels.has(channel);
        return {
          ok: true,
          channel: {
            id: channel,
            name: this.knownChannels.get(channel),
            is_channel: !isPrivate,
            is_group: isPrivate,
            is_im: false,
            is_mpim: false,
            is_private: isPrivate,
            is_archived: this.archivedChannels.has(channel),
            is_member: this.memberOf.has(channel),
          },
        };
      }
      case 'files.getUploadURLExternal': {
        const id = `F${++this.fileCounter}`;
        return { ok: true, upload_url: `${this.baseUrl}/upload/${id}`, file_id: id };
      }
      case 'conversations.list':
        return this.listChannels(args);
      case 'files.completeUploadExternal': {
        // Like Slack: files are shared into a channel given by id, never by name.
        if (args.channel_id !== undefined && !this.sees(String(args.channel_id)))
          return { ok: false, error: 'channel_not_found' };
        const files = parseJson(String(args.files ?? '[]')) as Array<{ id: string; title?: string }>;
        const shared = files.map((f) => ({ id: f.id, title: f.title ?? '', name: f.title ?? '' }));
        for (const f of files) this.fileReadyAt.set(f.id, this.now() + this.fileProcessingMs);
        // Like Slack: files shared into a thread show in its replies, as a message with `files`.
        if (typeof args.channel_id === 'string' && typeof args.thread_ts === 'string') {
          this.fileShares.push({
            channel: args.channel_id,
            threadTs: args.thread_ts,
            ts: this.nextTs(),
            files: shared,
          });
        }
        return { ok: true, files: shared };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** Like Slack: the channels, a page of `limit` at a time with a `next_cursor` (empty on the last). */
  private listChannels(args: Record<string, unknown>): Record<string, unknown> {
    const all = [...this.knownChannels]
      .filter(([id]) => this.sees(id))
      .map(([id, name]) => ({ id, name, is_member: this.memberOf.has(id) }));
    const limit = Math.min(1000, Math.max(1, Number(args.limit ?? 100) || 100));
    const start = Number(args.cursor ?? 0) || 0;
    const next = start + limit < all.length ? String(start + limit) : '';
    return { ok: true, channels: all.slice(start, start + limit), response_metadata: { next_cursor: next } };
  }

  /** Like Slack: a trigger id opens one modal; the view gets an id and a hash for its updates. */
  private openView(args: Record<string, unknown>): Record<string, unknown> {
    const triggerId = String(args.trigger_id ?? '');
    if (triggerId === '') return { ok: false, error: 'invalid_trigger_id' };
    if ([...this.views.values()].some((v) => v.triggerId === triggerId))
      return { ok: false, error: 'expired_trigger_id' };
    const view = (typeof args.view === 'string' ? parseJson(args.view) : (args.view ?? {})) as Record<string, unknown>;
    const id = `VMODAL${++this.viewCounter}`;
    const hash = `${Date.now()}.h${this.viewCounter}`;
    this.views.set(id, { view, hash, triggerId });
    return { ok: true, view: { ...view, id, hash } };
  }

  /** Like Slack: an update with a stale hash is refused with hash_conflict. */
  private updateView(args: Record<string, unknown>): Record<string, unknown> {
    const id = String(args.view_id ?? '');
    const current = this.views.get(id);
    if (!current) return { ok: false, error: 'not_found' };
    if (typeof args.hash === 'string' && args.hash !== current.hash) return { ok: false, error: 'hash_conflict' };
    const view = (typeof args.view === 'string' ? parseJson(args.view) : (args.view ?? {})) as Record<string, unknown>;
    const hash = `${Date.now()}.h${++this.viewCounter}`;
    this.views.set(id, { view, hash, triggerId: current.triggerId });
    return { ok: true, view: { ...view, id, hash } };
  }

  /** Like Slack: a channel the bot can see (it exists, and is public or has the bot in it). */
  private sees(channel: string): boolean {
    return this.knownChannels.has(channel) && (!this.privateChannels.has(channel) || this.memberOf.has(channel));
  }

  /** Like Slack, chat.postMessage takes `#name` for a channel and answers with its id. */
  private resolveChannel(channel: string): string {
    if (!channel.startsWith('#')) return channel;
    for (const [id, name] of this.knownChannels) if (name === channel.slice(1)) return id;
    return channel;
  }

  /**
   * Like Slack: a channel's top-level messages and the replies broadcast to it (other replies stay in
   * their thread), newest first; `oldest`/`latest` exclusive unless `inclusive`. A parent that has
   * replies carries `thread_ts` (its own ts), `reply_count` and `latest_reply`; a broadcast reply
   * carries its parent's `thread_ts` and the subtype `thread_broadcast`.
   */
  private history(args: Record<string, unknown>): Record<string, unknown> {
    const channel = String(args.channel ?? '');
    if (!this.sees(channel)) return { ok: false, error: 'channel_not_found' };
    if (!this.memberOf.has(channel)) return { ok: false, error: 'not_in_channel' };
    const limit = Math.min(999, Math.max(1, Number(args.limit ?? 100) || 100));
    const inRange = rangeOf(args);
    const withMetadata = isTrue(args.include_all_metadata);
    const found = this.messages
      .filter((m) => m.channel === channel && (m.threadTs === undefined || m.threadTs === m.ts || m.broadcast))
      .filter((m) => inRange(m.ts))
      .sort((a, b) => (tsMicros(b.ts) > tsMicros(a.ts) ? 1 : -1));
    const { slice, more } = pageOf(found, args.cursor, limit);
    return {
      ok: true,
      ...more,
      messages: slice.map((m) => ({
        type: 'message',
        ...author(m),
        ts: m.ts,
        text: m.text,
        ...(m.blocks !== undefined ? { blocks: m.blocks } : {}),
        ...(m.threadTs !== undefined && m.threadTs !== m.ts
          ? { thread_ts: m.threadTs, subtype: 'thread_broadcast' }
          : this.threadFields(channel, m.ts)),
        ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
      })),
    };
  }

  /** The replies in a thread (messages and file shares), oldest first. */
  private repliesIn(
    channel: string,
    ts: string,
  ): Array<{ ts: string; text: string; files?: unknown[]; metadata?: StoredMetadata }> {
    const shares = this.fileShares
      .filter((f) => f.channel === channel && f.threadTs === ts)
      .map((f) => ({ ts: f.ts, text: '', files: f.files }));
    return [...this.messages.filter((m) => m.channel === channel && m.threadTs === ts && m.ts !== ts), ...shares].sort(
      (a, b) => (tsMicros(a.ts) > tsMicros(b.ts) ? 1 : -1),
    );
  }

  /** What Slack adds to a parent that has replies: `thread_ts` (its own ts), `reply_count`, `latest_reply`. */
  private threadFields(channel: string, ts: string): Record<string, unknown> {
    const replies = this.repliesIn(channel, ts);
    const latest = replies.at(-1);
    if (!latest) return {};
    return { thread_ts: ts, reply_count: replies.length, latest_reply: latest.ts };
  }

  /**
   * Like Slack: a thread's parent first (with its thread fields), then its replies oldest first,
   * those within `oldest`/`latest` (exclusive unless `inclusive`); the parent heads the first page
   * whatever the range, and later pages hold replies only. Metadata with `include_all_metadata`.
   */
  private replies(args: Record<string, unknown>): Record<string, unknown> {
    const channel = String(args.channel ?? '');
    const ts = String(args.ts ?? '');
    if (!this.sees(channel)) return { ok: false, error: 'channel_not_found' };
    if (!this.memberOf.has(channel)) return { ok: false, error: 'not_in_channel' };
    const parent = this.messages.find((m) => m.channel === channel && m.ts === ts);
    if (!parent) return { ok: false, error: 'thread_not_found' };
    const limit = Math.min(1000, Math.max(1, Number(args.limit ?? 1000) || 1000));
    const inRange = rangeOf(args);
    const withMetadata = isTrue(args.include_all_metadata);
    const found = [parent, ...this.repliesIn(channel, ts).filter((m) => inRange(m.ts))];
    const { slice, more } = pageOf(found, args.cursor, limit);
    return {
      ok: true,
      ...more,
      messages: slice.map((m) => ({
        type: 'message',
        ...author(m),
        ts: m.ts,
        text: m.text,
        ...(m === parent ? this.threadFields(channel, ts) : { thread_ts: ts, parent_user_id: 'U_BOT' }),
        ...('files' in m && m.files ? { files: m.files } : {}),
        ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
      })),
    };
  }

  /** Seconds to wait when this call is over a limit (then it does not count), else undefined (it counts). */
  private overLimit(method: string, args: Record<string, unknown>): number | undefined {
    const limits = this.rateLimits;
    if (!limits) return undefined;
    const now = Date.now();
    const keys: Array<[string, number]> = [[method, limits.perMethod?.[method] ?? limitFor(method).perWindow]];
    if (method === 'chat.postMessage') {
      const channel = this.resolveChannel(String(args.channel ?? ''));
      keys.push([`${method}:${channel}`, limits.perChannel ?? limitFor(method).perChannel?.perWindow ?? 60]);
    }
    let waitMs = 0;
    for (const [key, max] of keys) {
      const log = (this.windows.get(key) ?? []).filter((at) => at > now - limits.windowMs);
      this.windows.set(key, log);
      if (log.length >= max) waitMs = Math.max(waitMs, (log[log.length - max] ?? now) + limits.windowMs - now);
    }
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    for (const [key] of keys) this.windows.get(key)?.push(now);
    return undefined;
  }

  /** Slack-like timestamps from the server's clock: seconds with six decimals, each one unique. */
  /** Whether `blocks` hold an image of an uploaded file Slack has not finished processing. */
  private showsUnprocessedFile(blocks: unknown): boolean {
    const list = (typeof blocks === 'string' ? parseJson(blocks) : blocks) as Array<{
      type?: string;
      slack_file?: { id?: string };
    }> | null;
    if (!Array.isArray(list)) return false;
    return list.some((b) => {
      const id = b?.type === 'image' ? b.slack_file?.id : undefined;
      return id !== undefined && (this.fileReadyAt.get(id) ?? 0) > this.now();
    });
  }

  /**
   * A person's message, stored as Slack stores it (so the thread reads it back), and returned as
   * the `message` event Slack sends for it: `channel_type`, and for a reply `thread_ts` and
   * `parent_user_id`. `typed` is what the person typed, sent in Slack's wire format
   * (`encodeAsSlack`; `smartQuotes` as a macOS or iOS keyboard types), or wire text as is. A
   * mention (`mention: true`) comes as `app_mention`, its text starting with the bot's `<@U_BOT>`.
   */
  say(
    channel: string,
    user: string,
    typed: SlackText,
    options: { threadTs?: string; mention?: boolean; smartQuotes?: boolean } = {},
  ): Record<string, unknown> {
    const encoded = wireTextOf(typed, { surface: 'message', ...(options.smartQuotes ? { smartQuotes: true } : {}) });
    const text = options.mention ? `<@U_BOT> ${encoded}` : encoded;
    const ts = this.nextTs();
    const message: StoredMessage = { channel, ts, text, blocks: [], user };
    if (options.threadTs) message.threadTs = options.threadTs;
    this.messages.push(message);
    const parent = options.threadTs
      ? this.messages.find((m) => m.channel === channel && m.ts === options.threadTs)
      : undefined;
    return {
      type: options.mention ? 'app_mention' : 'message',
      channel,
      ...(options.mention
        ? {}
        : { channel_type: channel.startsWith('D') ? 'im' : channel.startsWith('G') ? 'group' : 'channel' }),
      user,
      text,
      ts,
      event_ts: ts,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      ...(parent ? { parent_user_id: parent.user ?? 'U_BOT' } : {}),
    };
  }

  /** Other people's messages in a channel (plain text, no metadata), as a busy channel has. */
  chatter(channel: string, count: number): void {
    for (let i = 0; i < count; i++)
      this.messages.push({ channel, ts: this.nextTs(), text: `chatter ${i}`, blocks: [] });
  }

  private nextTs(): string {
    let micros = BigInt(Math.floor((this.now() + this.clockSkewMs) * 1000));
    if (micros <= this.lastTsMicros) micros = this.lastTsMicros + 1n;
    this.lastTsMicros = micros;
    const digits = micros.toString().padStart(7, '0');
    return `${digits.slice(0, -6)}.${digits.slice(-6)}`;
  }
}

/** Who posted a message, as Slack says it: a person's user id, or the bot's user and bot ids. */
function author(message: object): { user: string; bot_id?: string } {
  const user = (message as { user?: string }).user;
  return user !== undefined ? { user } : { user: 'U_BOT', bot_id: 'B_BOT' };
}

function decodeArgs(contentType: string, text: string): Record<string, unknown> {
  if (contentType.includes('application/json')) return (parseJson(text) as Record<string, unknown>) ?? {};
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = JSON_ARGS.has(key) ? parseJson(value) : value;
  }
  return args;
}

/** Form fields the Web API client sends as JSON text. */
const JSON_ARGS = new Set(['blocks', 'view', 'attachments', 'metadata']);

function asMetadata(value: unknown): StoredMetadata | undefined {
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { event_type, event_payload } = parsed as Record<string, unknown>;
  if (typeof event_type !== 'string') return undefined;
  return { event_type, event_payload: (event_payload ?? {}) as Record<string, unknown> };
}

/** Slack's `oldest`/`latest` window of a history or replies call: both bounds exclusive unless `inclusive`. */
function rangeOf(args: Record<string, unknown>): (ts: string) => boolean {
  const inclusive = isTrue(args.inclusive);
  const oldest = args.oldest === undefined ? undefined : tsMicros(String(args.oldest));
  const latest = args.latest === undefined ? undefined : tsMicros(String(args.latest));
  return (ts) => {
    const at = tsMicros(ts);
    if (oldest !== undefined && (inclusive ? at < oldest : at <= oldest)) return false;
    if (latest !== undefined && (inclusive ? at > latest : at >= latest)) return false;
    return true;
  };
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** A message ts (`1700000000.000123`) as microseconds, for exact ordering. */
function tsMicros(ts: string): bigint {
  const [seconds = '0', fraction = ''] = ts.split('.');
  if (!/^\d+$/.test(seconds) || !/^\d*$/.test(fraction)) return 0n;
  return BigInt(seconds) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6) || '0');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Like Slack's cursor paging: `limit` items from the cursor, and the next page's cursor while there are more. */
function pageOf<T>(items: readonly T[], cursor: unknown, limit: number) {
  const start = Number(cursor ?? 0) || 0;
  const slice = items.slice(start, start + limit);
  const next = start + limit < items.length ? String(start + limit) : '';
  return { slice, more: { has_more: next !== '', response_metadata: { next_cursor: next } } };
}
