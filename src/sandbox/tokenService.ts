/**
 * OAuth 2.0 client-credentials for the sandbox: client pairs (each with a user id), opaque
 * bearer tokens with an expiry. Deleting a pair invalidates its tokens only.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface TokenGrant {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface Caller {
  clientId: string;
  userId: number;
}

const equalSecrets = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class TokenService {
  private readonly clients = new Map<string, { secret: string; userId: number }>();
  private readonly tokens = new Map<string, Caller & { expiresAt: number }>();
  private nextUserId = 1001;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Registers a client pair and returns its user id (re-adding keeps the id, replaces the secret). */
  addClient(clientId: string, clientSecret: string): number {
    const existing = this.clients.get(clientId);
    const userId = existing?.userId ?? this.nextUserId++;
    this.clients.set(clientId, { secret: clientSecret, userId });
    return userId;
  }

  /** Deletes a pair and every token minted for it. */
  removeClient(clientId: string): void {
    this.clients.delete(clientId);
    for (const [token, caller] of this.tokens) if (caller.clientId === clientId) this.tokens.delete(token);
  }

  /** Mints a token, or returns null when the pair is unknown or the secret wrong. */
  issue(clientId: string, clientSecret: string, ttlSeconds: number): TokenGrant | null {
    const client = this.clients.get(clientId);
    if (client === undefined || !equalSecrets(client.secret, clientSecret)) return null;
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { clientId, userId: client.userId, expiresAt: this.clock() + ttlSeconds * 1000 });
    this.sweep();
    return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds };
  }

  /** The caller behind a token, 'expired', or null when unknown. */
  verify(token: string): Caller | 'expired' | null {
    const found = this.tokens.get(token);
    if (found === undefined) return null;
    if (found.expiresAt <= this.clock()) return 'expired';
    return { clientId: found.clientId, userId: found.userId };
  }

  /** Forgets tokens expired for over an hour, so long runs do not grow without bound. */
  private sweep(): void {
    const limit = this.clock() - 3_600_000;
    for (const [token, caller] of this.tokens) if (caller.expiresAt < limit) this.tokens.delete(token);
  }
}

/** An error of the token endpoint, as RFC 6749 §5.2 shapes it. */
export interface OAuthError {
  error: 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';
  error_description: string;
}

export interface TokenHttpRequest {
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  body: string;
  /** The Authorization header, if any (HTTP Basic client authentication). */
  authorization: string | undefined;
}

export interface TokenHttpAnswer {
  status: number;
  body: TokenGrant | OAuthError;
  headers: Record<string, string>;
}

/** RFC 6749 §5.1: token answers, errors included, are never cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
/** RFC 6749 §5.2: a client that tried HTTP Basic and failed is told how to authenticate. */
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="pivotbot-sandbox"' };

/**
 * The token endpoint's decision for one request: a grant (200), or an RFC 6749 §5.2 error —
 * 400 `invalid_request` (not form-encoded, no grant_type, a parameter twice),
 * 400 `unsupported_grant_type` (anything but client_credentials), 401 `invalid_client` (no, unknown
 * or wrong client credentials). Pure apart from minting through `tokens`.
 *
 * @example answerTokenRequest({ contentType: 'application/x-www-form-urlencoded', body, authorization: undefined }, tokens, 7200)
 */
export function answerTokenRequest(
  request: TokenHttpRequest,
  tokens: TokenService,
  ttlSeconds: number,
): TokenHttpAnswer {
  const fail = (
    status: number,
    error: OAuthError['error'],
    description: string,
    extra: Record<string, string> = {},
  ) => ({
    status,
    body: { error, error_description: description },
    headers: { ...NO_STORE, ...extra },
  });
  if (!(request.contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return fail(400, 'invalid_request', 'Invalid request: content must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(request.body);
  for (const name of ['grant_type', 'client_id', 'client_secret']) {
    if (form.getAll(name).length > 1) return fail(400, 'invalid_request', `Invalid request: ${name} is given twice`);
  }
  const grantType = form.get('grant_type');
  if (grantType === null || grantType === '') {
    return fail(400, 'invalid_request', 'Invalid request: grant_type is required (client_credentials)');
  }
  if (grantType !== 'client_credentials') {
    return fail(400, 'unsupported_grant_type', 'Invalid request: grant_type must be client_credentials');
  }
  let clientId = form.get('client_id');
  let clientSecret = form.get('client_secret');
  // The pair as sent, when a Basic header gives it: RFC 6749 §2.3.1 URL-encodes both halves, but
  // Python's requests (under the official client, jampp/reporting-api-client) sends them as they are.
  let rawPair: [string, string] | null = null;
  const basic = /^Basic\s+(.+)$/i.exec(request.authorization ?? '');
  if ((clientId === null || clientSecret === null) && basic !== null) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      rawPair = [decoded.slice(0, colon), decoded.slice(colon + 1)];
      [clientId, clientSecret] = urlDecoded(rawPair) ?? rawPair;
    }
  }
  const challenge = basic === null ? {} : BASIC_CHALLENGE;
  if (clientId === null || clientSecret === null || clientId === '' || clientSecret === '') {
    return fail(401, 'invalid_client', 'Client authentication required: client_id and client_secret', challenge);
  }
  const grant =
    tokens.issue(clientId, clientSecret, ttlSeconds) ??
    (rawPair === null || (rawPair[0] === clientId && rawPair[1] === clientSecret)
      ? null
      : tokens.issue(rawPair[0], rawPair[1], ttlSeconds));
  if (grant === null) return fail(401, 'invalid_client', 'Invalid client credentials', challenge);
  return { status: 200, body: grant, headers: NO_STORE };
}

/** Both halves URL-decoded, or null when one of them is not valid URL encoding (a raw `%`). */
function urlDecoded(pair: [string, string]): [string, string] | null {
  try {
    return [decodeURIComponent(pair[0]), decodeURIComponent(pair[1])];
  } catch {
    return null;
  }
}
