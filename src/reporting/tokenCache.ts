import { CancelledError, type Logger, untilAborted } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import { ReportingAuthError, ReportingNetworkError, ReportingResponseError, ReportingTimeoutError } from './errors.js';

export interface TokenCacheOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Renew this many seconds before expiry; by default 10% of the lifetime, at most 300 s. */
  marginSeconds?: number;
  now?: () => number;
  logger?: Logger;
  /** Counts the tokens minted (`pivotbot_reporting_token_refreshes_total`). */
  metrics?: BotMetrics;
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

/**
 * Client-credentials tokens: minted with a form-encoded POST, cached until `expires_in` minus a
 * margin, and shared: concurrent callers wait on one in-flight request (single flight).
 *
 * @example const tokens = new TokenCache({ authUrl, clientId, clientSecret }); await tokens.get();
 */
export class TokenCache {
  private cached: CachedToken | undefined;
  private inFlight: Promise<string> | undefined;
  private readonly now: () => number;
  /** How many token requests were sent; the benchmark and tests read it. */
  mintCount = 0;

  constructor(private readonly options: TokenCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A valid access token, minting one if none is cached or it is about to expire. An aborted
   * `signal` stops this caller's wait (CancelledError); a mint other callers share goes on.
   */
  get(signal?: AbortSignal): Promise<string> {
    if (this.cached && this.now() < this.cached.expiresAt) return Promise.resolve(this.cached.value);
    if (signal?.aborted) return Promise.reject(new CancelledError(`POST ${pathOf(this.options.authUrl)}`));
    if (!this.inFlight) {
      this.inFlight = this.mint().finally(() => {
        this.inFlight = undefined;
      });
    }
    return untilAborted(this.inFlight, signal, `POST ${pathOf(this.options.authUrl)}`);
  }

  /** Forgets `token` (after a 401) so the next `get()` mints a new one; a newer token is kept. */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async mint(): Promise<string> {
    const { authUrl, clientId, clientSecret } = this.options;
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    this.mintCount++;
    this.options.metrics?.reporting.tokenRefreshes.inc();
    let response: Response;
    let text: string;
    try {
      response = await (this.options.fetch ?? fetch)(authUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted) throw new ReportingTimeoutError(`POST ${pathOf(authUrl)}`, timeoutMs);
      throw new ReportingNetworkError(`POST ${pathOf(authUrl)}`, error);
    } finally {
      clearTimeout(timer);
    }

    const parsed = tryParse(text);
    if (!response.ok) {
      const message = serverMessage(parsed) ?? (text.length > 0 && text.length < 200 ? text : undefined);
      // RFC 6749 §5.2 servers name the failure (`invalid_client`…); kept for the log, never shown to users.
      const oauthError = (parsed as { error?: unknown } | undefined)?.error;
      throw new ReportingAuthError(
        `POST ${pathOf(authUrl)} answered ${response.status}${message ? `: ${message}` : ''}`,
        response.status,
        typeof oauthError === 'string' && /^[a-z_]+$/.test(oauthError) ? { details: { oauthError } } : {},
      );
    }
    const token = parsed as { access_token?: unknown; expires_in?: unknown; token_type?: unknown } | undefined;
    if (!token || typeof token.access_token !== 'string' || token.access_token === '') {
      throw new ReportingResponseError(`POST ${pathOf(authUrl)} answered ${response.status} without an access_token`);
    }
    if (typeof token.token_type === 'string' && token.token_type.toLowerCase() !== 'bearer') {
      throw new ReportingResponseError(`POST ${pathOf(authUrl)} answered token_type "${token.token_type}", not Bearer`);
    }
    const lifetime = typeof token.expires_in === 'number' && token.expires_in > 0 ? token.expires_in : 3600;
    const margin = this.options.marginSeconds ?? Math.min(300, lifetime / 10);
    this.cached = { value: token.access_token, expiresAt: this.now() + (lifetime - margin) * 1000 };
    this.options.logger?.debug({ expiresIn: lifetime }, 'reporting token minted');
    return token.access_token;
  }
}

/** The server's error text from `{"error":{"message":…}}`, `{"error":"…"}` or OAuth's `error_description`. */
export function serverMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.error_description === 'string') return record.error_description;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object') {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  if (typeof record.message === 'string') return record.message;
  return undefined;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
