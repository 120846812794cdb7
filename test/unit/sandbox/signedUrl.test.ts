import { UrlSigner } from '../../../src/sandbox/signedUrl.js';

describe('UrlSigner', () => {
  let now = 1_800_000_000_000;
  const signer = new UrlSigner(Buffer.alloc(32, 7), () => now);
  const path = '/v1/files/3a818623-25f1-4b2b-ae07-67d09c173ed6.csv';
  const parts = (query: string) => {
    const params = new URLSearchParams(query);
    return [params.get('expires'), params.get('signature')] as const;
  };

  it('accepts its own signature until the expiry', () => {
    const [expires, signature] = parts(signer.sign(path, 60));
    expect(signer.check(path, expires, signature)).toBe('ok');
    now += 61_000;
    expect(signer.check(path, expires, signature)).toBe('expired');
    now -= 61_000;
  });

  it('refuses an altered path, expiry or signature', () => {
    const [expires, signature] = parts(signer.sign(path, 60));
    expect(signer.check(path.replace('3a8', '3a9'), expires, signature)).toBe('invalid');
    expect(signer.check(path, String(Number(expires) + 3600), signature)).toBe('invalid');
    const flipped = `${signature?.slice(0, -1)}${signature?.endsWith('0') ? '1' : '0'}`;
    expect(signer.check(path, expires, flipped)).toBe('invalid');
    expect(signer.check(path, null, signature)).toBe('invalid');
    expect(signer.check(path, expires, 'zz')).toBe('invalid');
  });

  it('does not accept a signature made with another secret', () => {
    const other = new UrlSigner(Buffer.alloc(32, 8), () => now);
    const [expires, signature] = parts(other.sign(path, 60));
    expect(signer.check(path, expires, signature)).toBe('invalid');
  });
});
