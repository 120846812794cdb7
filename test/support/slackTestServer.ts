import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketPeer } from './webSocketPeer.js';

/** One Web API call as the server saw it: the method and its arguments (form or JSON, decoded). */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token: string | undefined;
  at: number;
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
}

interface StoredMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown;
  threadTs?: string;
}

/**
 * A Slack-compatible Web API test server on 127.0.0.1: answers the methods the bot calls
 * (auth.test, chat.postMessage/update/postEphemeral, views.publish, the files upload-v2 flow,
 * conversations.info, response_url hooks), records every call, and answers 429, 5xx or Slack
 * errors on demand. Point the bot at `apiUrl` through SLACK_API_URL. It also plays Socket Mode:
 * `apps.connections.open` (with an `xapp-` token) hands out a WebSocket on this server, which
 * says hello and carries the envelopes a test sends with `sendEnvelope`.
 */
export class SlackTestServer {
  readonly calls: SlackCall[] = [];
  readonly hooks: HookCall[] = [];
  readonly uploads: HookCall[] = [];
  readonly messages: StoredMessage[] = [];
  /** Channels the bot is a member of; posting elsewhere answers not_in_channel. */
  readonly memberOf = new Set<string>(['C0GENERAL1', 'C0MARKET01']);
  readonly knownChannels = new Map<string, string>([
    ['C0GENERAL1', 'general'],
    ['C0MARKET01', 'marketing'],
    ['C0OUTSIDE1', 'outside'],
  ]);
  private readonly faults = new Map<string, Fault[]>();
  private readonly waiters: Array<{ test: () => boolean; resolve: () => void }> = [];
  private readonly sockets = new Set<Socket>();
  /** Socket Mode connections the bot opened, oldest first. */
  readonly socketConnections: WebSocketPeer[] = [];
  private readonly envelopeAcks = new Map<string, (ack: Record<string, unknown>) => void>();
  private envelopeCounter = 0;
  private server: Server | undefined;
  private tsCounter = 0;
  private fileCounter = 0;
  baseUrl = '';

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
   * Mode connection; resolves with the bot's acknowledgement and how long it took.
   */
  async sendEnvelope(
    type: 'slash_commands' | 'interactive' | 'events_api',
    payload: Record<string, unknown>,
    timeoutMs = 5_000,
  ): Promise<{ ack: Record<string, unknown>; ms: number }> {
    const peer = [...this.socketConnections].reverse().find((c) => c.isOpen);
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
      JSON.stringify({ envelope_id: envelopeId, type, payload, accepts_response_payload: type !== 'events_api' }),
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
    this.calls.push({ method, args, token, at: Date.now() });

    const fault = this.faults.get(method)?.shift();
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
    // Socket Mode's connection call takes the app-level token; everything else the bot token.
    const tokenPrefix = method === 'apps.connections.open' ? 'xapp-' : 'xoxb-';
    if (token !== undefined && !token.startsWith(tokenPrefix)) {
      json(res, { ok: false, error: 'invalid_auth' });
      return;
    }
    json(res, this.answer(method, args));
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
        const channel = this.resolveChannel(String(args.channel ?? ''));
        if (!this.knownChannels.has(channel)) return { ok: false, error: 'channel_not_found' };
        if (!this.memberOf.has(channel)) return { ok: false, error: 'not_in_channel' };
        const ts = this.nextTs();
        const message: StoredMessage = { channel, ts, text: String(args.text ?? ''), blocks: args.blocks };
        if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
        this.messages.push(message);
        return { ok: true, channel, ts, message: { ts, text: message.text } };
      }
      case 'chat.update': {
        const message = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = String(args.text ?? message.text);
        message.blocks = args.blocks ?? message.blocks;
        return { ok: true, channel: message.channel, ts: message.ts };
      }
      case 'chat.postEphemeral':
        return { ok: true, message_ts: this.nextTs() };
      case 'views.publish':
        return { ok: true, view: { id: 'V1', type: 'home' } };
      case 'conversations.info': {
        const channel = String(args.channel ?? '');
        const name = this.knownChannels.get(channel);
        if (!name) return { ok: false, error: 'channel_not_found' };
        return { ok: true, channel: { id: channel, name, is_member: this.memberOf.has(channel) } };
      }
      case 'files.getUploadURLExternal': {
        const id = `F${++this.fileCounter}`;
        return { ok: true, upload_url: `${this.baseUrl}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = parseJson(String(args.files ?? '[]')) as Array<{ id: string; title?: string }>;
        return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title ?? '', name: f.title ?? '' })) };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** Like Slack, chat.postMessage takes `#name` for a channel and answers with its id. */
  private resolveChannel(channel: string): string {
    if (!channel.startsWith('#')) return channel;
    for (const [id, name] of this.knownChannels) if (name === channel.slice(1)) return id;
    return channel;
  }

  private nextTs(): string {
    this.tsCounter++;
    return `1700000000.${String(this.tsCounter).padStart(6, '0')}`;
  }
}

function decodeArgs(contentType: string, text: string): Record<string, unknown> {
  if (contentType.includes('application/json')) return (parseJson(text) as Record<string, unknown>) ?? {};
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = key === 'blocks' || key === 'view' || key === 'attachments' ? parseJson(value) : value;
  }
  return args;
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
