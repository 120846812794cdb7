import { TokenService } from '../../../src/sandbox/tokenService.js';

describe('TokenService', () => {
  let now = 1_000_000;
  const tokens = new TokenService(() => now);
  const userA = tokens.addClient('a', 'secret-a');
  const userB = tokens.addClient('b', 'secret-b');

  it('mints Bearer tokens for a known pair and knows who holds them', () => {
    const grant = tokens.issue('a', 'secret-a', 7200);
    expect(grant).toMatchObject({ token_type: 'Bearer', expires_in: 7200 });
    expect(tokens.verify(grant?.access_token ?? '')).toEqual({ clientId: 'a', userId: userA });
    expect(userA).not.toBe(userB);
  });

  it('refuses a wrong secret or an unknown client', () => {
    expect(tokens.issue('a', 'secret-b', 7200)).toBeNull();
    expect(tokens.issue('nobody', 'x', 7200)).toBeNull();
    expect(tokens.verify('made-up')).toBeNull();
  });

  it('reports a token as expired after its lifetime', () => {
    const grant = tokens.issue('b', 'secret-b', 2);
    now += 1999;
    expect(tokens.verify(grant?.access_token ?? '')).toEqual({ clientId: 'b', userId: userB });
    now += 1;
    expect(tokens.verify(grant?.access_token ?? '')).toBe('expired');
  });

  it('invalidates only the deleted pair’s tokens', () => {
    const a = tokens.issue('a', 'secret-a', 7200)?.access_token ?? '';
    const b = tokens.issue('b', 'secret-b', 7200)?.access_token ?? '';
    tokens.removeClient('a');
    expect(tokens.verify(a)).toBeNull();
    expect(tokens.verify(b)).not.toBeNull();
    expect(tokens.issue('a', 'secret-a', 7200)).toBeNull();
  });
});
