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
