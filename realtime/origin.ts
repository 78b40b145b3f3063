import type { IncomingHttpHeaders } from 'node:http';

/**
 * How a socket handshake may use the visitor's session, judged by where the page that opened it
 * came from (docs/security.md, "Socket handshake origin"):
 * - 'site': the site's own page (or an allowed origin): the session's cookie counts;
 * - 'anonymous': no browser origin at all (load tools, servers): connect, but as a guest, with no
 *   session, whatever cookie is sent;
 * - 'foreign': a page on another site: refused, since its browser would attach the visitor's cookie.
 */
export type HandshakeOrigin = 'site' | 'anonymous' | 'foreign';

export interface OriginPolicy {
  /** The site's public origin (PUBLIC_URL). */
  publicUrl: string;
  /** Further trusted origins (ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
}

/** `host` as a URL with this scheme would spell it (lower case, the scheme's default port dropped). */
function normalHost(protocol: string, host: string): string | null {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return null;
  }
}

export function originJudge({ publicUrl, allowedOrigins }: OriginPolicy) {
  const trusted = new Set([publicUrl, ...allowedOrigins]);
  return (headers: IncomingHttpHeaders): HandshakeOrigin => {
    const origin = headers.origin;
    if (origin === undefined) {
      // A browser leaves Origin off a same-origin GET (Socket.IO's polling fallback starts with
      // one) but says where the request came from in Sec-Fetch-Site, which no page can set.
      return headers['sec-fetch-site'] === 'same-origin' ? 'site' : 'anonymous';
    }
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return 'foreign'; // includes the opaque 'null' origin of sandboxed frames and files
    }
    if (trusted.has(url.origin)) return 'site';
    // The page's host is the host the handshake was sent to: the same site, whatever name or port
    // it is reached by (the Vite dev server on another port keeps the Host header it proxies).
    // A page on another site cannot send its own host here with the visitor's cookie: the browser
    // sends a site's cookies only to that site, so a matching foreign Host (DNS rebinding) brings
    // no session.
    const host = headers.host;
    if (host && normalHost(url.protocol, host) === url.host) return 'site';
    return 'foreign';
  };
}
