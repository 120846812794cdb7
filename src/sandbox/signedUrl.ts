/**
 * Signed download URLs: an HMAC-SHA256 over the path and the expiry, so the CSV needs no auth
 * header, and an expired or altered URL is refused (403).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type UrlCheck = 'ok' | 'expired' | 'invalid';

export class UrlSigner {
  constructor(
    private readonly secret: Buffer = randomBytes(32),
    private readonly clock: () => number = Date.now,
  ) {}

  /** Query string `expires=…&signature=…` for a path, valid for `ttlSeconds`. */
  sign(path: string, ttlSeconds: number): string {
    const expires = Math.floor(this.clock() / 1000) + Math.ceil(ttlSeconds);
    return `expires=${expires}&signature=${this.signature(path, String(expires))}`;
  }

  /** Checks a path with its `expires` and `signature` query values. */
  check(path: string, expires: string | null, signature: string | null): UrlCheck {
    if (expires === null || signature === null || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
      return 'invalid';
    }
    const expected = Buffer.from(this.signature(path, expires), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    return Number(expires) * 1000 <= this.clock() ? 'expired' : 'ok';
  }

  private signature(path: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`GET\n${path}\n${expires}`).digest('hex');
  }
}
