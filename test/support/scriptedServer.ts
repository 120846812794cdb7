import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => unknown;

/**
 * A real HTTP server on 127.0.0.1 whose answers each test scripts per path, recording every
 * request it receives. Used where a test needs an upstream to misbehave in a precise way.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers = new Map<string, Handler>();
  private server: Server | undefined;
  private readonly sockets = new Set<import('node:net').Socket>();
  baseUrl = '';

  on(path: string, handler: Handler): this {
    this.handlers.set(path, handler);
    return this;
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(recorded);
        const handler = this.handlers.get(url.pathname);
        if (!handler) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
          return;
        }
        Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500).end(String(error));
        });
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
