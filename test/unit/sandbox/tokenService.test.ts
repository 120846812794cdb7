import { answerTokenRequest, TokenService } from '../../../src/sandbox/tokenService.js';

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

describe('answerTokenRequest (RFC 6749 §5.2 errors)', () => {
  const tokens = new TokenService(() => 0);
  tokens.addClient('bot', 'bot-secret');
  const form = 'application/x-www-form-urlencoded';
  const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

  it.each([
    ['a JSON body', 'application/json', '{}', undefined, 400, 'invalid_request'],
    ['no content type', undefined, 'grant_type=client_credentials', undefined, 400, 'invalid_request'],
    ['no grant_type', form, 'client_id=bot&client_secret=bot-secret', undefined, 400, 'invalid_request'],
    ['grant_type twice', form, 'grant_type=client_credentials&grant_type=password', undefined, 400, 'invalid_request'],
    [
      'another grant type',
      form,
      'grant_type=password&client_id=bot&client_secret=x',
      undefined,
      400,
      'unsupported_grant_type',
    ],
    ['no client credentials', form, 'grant_type=client_credentials', undefined, 401, 'invalid_client'],
    [
      'a wrong secret',
      form,
      'grant_type=client_credentials&client_id=bot&client_secret=nope',
      undefined,
      401,
      'invalid_client',
    ],
    [
      'an unknown client',
      form,
      'grant_type=client_credentials&client_id=who&client_secret=bot-secret',
      undefined,
      401,
      'invalid_client',
    ],
    ['a wrong Basic pair', form, 'grant_type=client_credentials', basic('bot:nope'), 401, 'invalid_client'],
  ] as const)('answers %s with %i %s', (_name, contentType, body, authorization, status, error) => {
    const answer = answerTokenRequest({ contentType, body, authorization }, tokens, 7200);
    expect(answer).toMatchObject({ status, body: { error, error_description: expect.any(String) } });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.stringify(answer.body)).not.toContain('bot-secret');
    if (authorization !== undefined) expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('mints for good credentials in the form or in a Basic header', () => {
    for (const [body, authorization] of [
      ['grant_type=client_credentials&client_id=bot&client_secret=bot-secret', undefined],
      ['grant_type=client_credentials', basic('bot:bot-secret')],
    ] as const) {
      const answer = answerTokenRequest({ contentType: form, body, authorization }, tokens, 7200);
      expect(answer).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 7200 } });
    }
  });

  it('reads a Basic pair URL-encoded (RFC 6749 §2.3.1) or as sent (Python requests, under the official client)', () => {
    tokens.addClient('odd id', 'p%41ss:w+rd%');
    for (const pair of ['odd%20id:p%2541ss%3Aw%2Brd%25', 'odd id:p%41ss:w+rd%']) {
      const answer = answerTokenRequest(
        { contentType: form, body: 'grant_type=client_credentials', authorization: basic(pair) },
        tokens,
        7200,
      );
      expect([pair, answer.status]).toEqual([pair, 200]);
    }
    const wrong = answerTokenRequest(
      { contentType: form, body: 'grant_type=client_credentials', authorization: basic('odd id:pAss:w+rd%') },
      tokens,
      7200,
    );
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});
