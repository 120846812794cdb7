/**
 * Socket Mode's HTTP server: Slack needs no port in Socket Mode, but a platform that runs the bot
 * as its web process (Heroku's `web:`, a container with a health check) expects it to bind `PORT`
 * and answer there. This serves the receiver's own routes (`GET /healthz`, …) and nothing else.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomRoute } from '@slack/bolt';

export interface RouteServer {
  port: number;
  stop(): Promise<void>;
}

/**
 * Serves `routes` on `port` (0 picks a free one) on every interface, as Bolt's HTTP mode does;
 * rejects when the port cannot be bound.
 *
 * @example const server = await serveRoutes(3000, [healthRoute(sink, ackTimes)]);
 */
export async function serveRoutes(port: number, routes: readonly CustomRoute[]): Promise<RouteServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((r) => r.path === path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
      return;
    }
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
    if (!methods.includes(req.method ?? 'GET')) {
      res.writeHead(405, { 'content-type': 'text/plain', allow: methods.join(', ') });
      res.end('method not allowed\n');
      return;
    }
    route.handler(Object.assign(req, { params: {} }), res);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
