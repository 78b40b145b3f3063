import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { registeredClient } from './accounts';
import { TestClient } from './httpClient';

// Helpers for the admin back-office tests.

/** The admin account the server creates on start (ADMIN_USERNAME / ADMIN_PASSWORD defaults), signed in. */
export async function signedInAdmin(baseUrl: string, username = 'admin', password = 'admin123') {
  const client = new TestClient(baseUrl);
  await client.fetchCsrfToken();
  const res = await client.post('/api/login', { username, password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
  await client.fetchCsrfToken();
  return { client, user: res.body as { id: number; username: string } };
}

/** A registered customer (role user), signed in. */
export async function signedInCustomer(baseUrl: string, overrides: Record<string, unknown> = {}) {
  const { client, user, body } = await registeredClient(baseUrl, overrides);
  return {
    client,
    user: user as { id: number; username: string; email: string },
    password: body.password as string,
  };
}

export const put = (c: TestClient, path: string, body?: unknown) => c.request('PUT', path, body);
export const patch = (c: TestClient, path: string, body?: unknown) => c.request('PATCH', path, body);
export const del = (c: TestClient, path: string) => c.request('DELETE', path);

/** Buys `numbers` through the real checkout with the sandbox's good test card; the order id. */
export async function buyWithCard(client: TestClient, competitionId: number, numbers: number[]) {
  const skill = await client.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
  expect(skill.body?.correct, skill.text).toBe(true);
  const held = await client.post('/api/cart', {
    competitionId,
    quantity: numbers.length,
    selectedNumbers: numbers,
  });
  expect(held.status, held.text).toBe(201);
  const intent = await client.post('/api/create-payment-intent', { version: 5 });
  expect(intent.status, intent.text).toBe(200);
  const paid = await client.post('/api/payments/sandbox/confirm', {
    clientSecret: intent.body.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 3,
    cvc: '123',
  });
  expect(paid.status, paid.text).toBe(200);
  return intent.body.orderId as number;
}

/** A multipart/form-data body with one file part. */
export function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----wcp${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, data, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POSTs a file as the browser's form would; returns status and JSON. */
export async function uploadFile(
  client: TestClient,
  path: string,
  file: { field?: string; filename: string; contentType: string; data: Buffer },
) {
  const { body, contentType } = multipart(file.field ?? 'image', file.filename, file.contentType, file.data);
  const res = await fetch(client.baseUrl + path, {
    method: 'POST',
    headers: {
      'Content-Type': contentType,
      Cookie: client.cookieHeader,
      ...(client.csrfToken ? { 'X-CSRF-Token': client.csrfToken } : {}),
    },
    body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary response JSON
  return { status: res.status, headers: res.headers, body: json as any, text };
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const byte of b) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real (tiny, grey) PNG; the header may claim any size, as a hostile file would. */
export function png(width = 2, height = 2, claimed?: { width: number; height: number }) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(claimed?.width ?? width, 0);
  ihdr.writeUInt32BE(claimed?.height ?? height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0; // filter byte per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal GIF89a header of the given size. */
export function gif(width: number, height: number) {
  const b = Buffer.alloc(32);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

/** Each user's balance next to what their ledger sums to. */
export async function ledgerMismatches(db: import('knex').Knex) {
  const users = (await db('users').select('id', 'siteCreditPence')) as Array<{
    id: number;
    siteCreditPence: number;
  }>;
  const rows = (await db('creditTransactions').select('userId', 'type', 'amountPence')) as Array<{
    userId: number;
    type: string;
    amountPence: number;
  }>;
  const sums = new Map<number, number>();
  for (const r of rows)
    sums.set(r.userId, (sums.get(r.userId) ?? 0) + (r.type === 'credit' ? 1 : -1) * Number(r.amountPence));
  return users
    .filter((u) => Number(u.siteCreditPence) !== (sums.get(u.id) ?? 0))
    .map((u) => ({ userId: u.id, balance: Number(u.siteCreditPence), ledger: sums.get(u.id) ?? 0 }));
}
