import { describe, expect, it } from 'vitest';
import { originJudge } from '../../realtime/origin';

// The rules of docs/security.md "Socket handshake origin", header by header.
describe('originJudge', () => {
  const judge = originJudge({
    publicUrl: 'https://www.westcountryprizes.co.uk',
    allowedOrigins: ['https://admin.westcountryprizes.co.uk'],
  });

  it('trusts PUBLIC_URL and ALLOWED_ORIGINS whatever Host a proxy passes on', () => {
    expect(judge({ origin: 'https://www.westcountryprizes.co.uk', host: 'app:3000' })).toBe('site');
    expect(judge({ origin: 'https://admin.westcountryprizes.co.uk', host: 'app:3000' })).toBe('site');
  });

  it('trusts a page on the host the handshake was sent to, ports compared as a URL would', () => {
    expect(judge({ origin: 'http://localhost:3000', host: 'localhost:3000' })).toBe('site');
    expect(judge({ origin: 'https://shop.example', host: 'SHOP.example:443' })).toBe('site');
    expect(judge({ origin: 'http://localhost:5173', host: 'localhost:3000' })).toBe('foreign');
    expect(judge({ origin: 'https://shop.example', host: 'shop.example:8443' })).toBe('foreign');
  });

  it('refuses any other origin, the opaque null origin and garbage', () => {
    expect(judge({ origin: 'https://evil.example', host: 'www.westcountryprizes.co.uk' })).toBe('foreign');
    expect(judge({ origin: 'https://www.westcountryprizes.co.uk.evil.example', host: 'x' })).toBe('foreign');
    expect(judge({ origin: 'null', host: 'www.westcountryprizes.co.uk' })).toBe('foreign');
    expect(judge({ origin: '', host: 'www.westcountryprizes.co.uk' })).toBe('foreign');
  });

  it('treats no Origin as anonymous, unless the browser says the request is same-origin', () => {
    expect(judge({ host: 'localhost:3000' })).toBe('anonymous');
    expect(judge({ host: 'localhost:3000', 'sec-fetch-site': 'same-site' })).toBe('anonymous');
    expect(judge({ host: 'localhost:3000', 'sec-fetch-site': 'cross-site' })).toBe('anonymous');
    expect(judge({ host: 'localhost:3000', 'sec-fetch-site': 'same-origin' })).toBe('site');
  });
});
