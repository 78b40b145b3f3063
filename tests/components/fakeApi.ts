import { vi } from 'vitest';
import { startRealtime } from '../../web/live/socket';

/** A JSON answer as the API sends it. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Replaces fetch with a handler of method and path; the CSRF token is answered here, so a
 * handler only describes the requests the test is about.
 */
export function stubApi(handle: (method: string, path: string) => Response | undefined) {
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    if (input === '/api/csrf-token') return jsonResponse(200, { csrfToken: 'token' });
    const method = init?.method ?? 'GET';
    return handle(method, input) ?? jsonResponse(404, { message: 'Not found', code: 'not_found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * Loads the socket as the app does at start (web/live/socket.ts: socket.io-client, mocked by the
 * test, after the CSRF token), so that the stores' listeners reach it.
 */
export async function startFakeRealtime() {
  stubApi(() => undefined);
  await startRealtime();
  vi.unstubAllGlobals();
}
