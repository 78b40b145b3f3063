import type { Knex } from 'knex';
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { buyWithCard, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { barrier, collect, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 15, point 6: a WebSocket handshake carrying the admin's cookie and
// `Origin: https://evil.example` joined the admins room and received admin:order. WebSockets are
// not bound by CORS, so the handshake itself must check where the page came from.

const PUBLIC_URL = 'https://shop.example';
const PARTNER = 'https://partner.example';
const REFUSED = "Live updates are only available on this site's own pages.";

describe.skipIf(engineUnavailable())(`socket handshake origin on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  const sockets: TestSocket[] = [];
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    {
      env: { PUBLIC_URL, ALLOWED_ORIGINS: ` ${PARTNER}/ , https://other.example:8443` },
      beforeStop: () => {
        for (const s of sockets) s.disconnect();
      },
    },
  );

  /** Opens a socket with exactly these headers; resolves with it, or with the connect_error. */
  const open = (headers: Record<string, string>) =>
    new Promise<{ socket: TestSocket; error?: Error }>((resolve) => {
      const socket: TestSocket = io(server.url, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: headers,
      });
      sockets.push(socket);
      socket.once('connect', () => resolve({ socket }));
      socket.once('connect_error', (error) => resolve({ socket, error }));
    });

  const roomsOf = async (socket: TestSocket) => {
    const [found] = await server.io.in(socket.id!).fetchSockets();
    return [...(found?.rooms ?? [])].filter((room) => room !== socket.id).sort();
  };

  it('refuses an admin cookie from a foreign origin, lets one with no origin in only as a guest, and serves the site', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const { client: admin, user } = await signedInAdmin(server.url);
    const cookie = admin.cookieHeader;
    const site = new URL(server.url).origin;

    // The attack: a page on evil.example opens a socket; the browser attaches the admin's cookie.
    for (const origin of [
      'https://evil.example',
      'null',
      'http://localhost:1',
      `${PUBLIC_URL}.evil.example`,
    ]) {
      const foreign = await open({ Cookie: cookie, Origin: origin });
      expect(foreign.error?.message, origin).toBe(REFUSED);
      expect(foreign.socket.connected).toBe(false);
    }
    // A browser's same-site but cross-origin request without Origin is not the site's own page either.
    const noOrigin = await open({ Cookie: cookie });
    const crossSiteNoOrigin = await open({ Cookie: cookie, 'Sec-Fetch-Site': 'same-site' });
    for (const guest of [noOrigin, crossSiteNoOrigin]) {
      expect(guest.error).toBeUndefined();
      expect(await roomsOf(guest.socket)).toEqual([]);
    }

    // The site itself: by its Host (how `npm run dev` and these tests reach it), by PUBLIC_URL (a
    // proxy in front may rewrite Host), by ALLOWED_ORIGINS, and the polling fallback's same-origin
    // GET, which a browser sends without Origin but with Sec-Fetch-Site.
    const sameHost = await open({ Cookie: cookie, Origin: site });
    const publicUrl = await open({ Cookie: cookie, Origin: PUBLIC_URL });
    const partner = await open({ Cookie: cookie, Origin: PARTNER });
    const samePolling = await open({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' });
    const siteSockets = [sameHost, publicUrl, partner, samePolling];
    for (const { socket, error } of siteSockets) {
      expect(error).toBeUndefined();
      expect(await roomsOf(socket)).toEqual(expect.arrayContaining(['admins', `user:${user.id}`]));
    }

    const toGuests = [noOrigin, crossSiteNoOrigin].map((g) => collect(g.socket, 'admin:order'));
    const toSite = siteSockets.map((s) => collect(s.socket, 'admin:order'));
    const { client: customer } = await signedInCustomer(server.url);
    await buyWithCard(customer, id, [3]);
    await waitFor(() => toSite.every((got) => got.length >= 2), 3000, 'admin:order on every site socket');
    for (const got of toSite) expect(got.map((o) => o.change)).toEqual(['created', 'paid']);
    // Each admin:order went to the admins room in one broadcast, which the site sockets have had:
    // after a round trip on each guest socket, anything it had been sent has arrived.
    for (const guest of [noOrigin, crossSiteNoOrigin]) await barrier(guest.socket);
    expect(toGuests).toEqual([[], []]);
  });

  it('gives a socket with no origin no cart pushes for the cookie it carries', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const { client: customer } = await signedInCustomer(server.url);
    const headless = await open({ Cookie: customer.cookieHeader });
    const own = await open({ Cookie: customer.cookieHeader, Origin: new URL(server.url).origin });
    const toHeadless = collect(headless.socket, 'cart:updated');
    const toOwn = collect(own.socket, 'cart:updated');
    await buyWithCard(customer, id, [4]);
    await waitFor(() => toOwn.length > 0, 3000, 'cart:updated on the site socket');
    // That push went to the owner's rooms in one broadcast: had the headless socket been in them,
    // it would have it by the end of a round trip.
    await barrier(headless.socket);
    expect(toHeadless).toEqual([]);
    expect(await roomsOf(headless.socket)).toEqual([]);
  });
});
