import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

// The development outbox (DATA_DIR/outbox/*.eml) read back as messages: enough MIME for what
// nodemailer writes (folded headers, multipart/alternative, quoted-printable or base64 parts).

export interface OutboxMessage {
  file: string;
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Quoted-printable decoded as UTF-8 bytes (headers and most text are ASCII anyway). */
export const decodeQuotedPrintable = (s: string) =>
  Buffer.from(
    s
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) in a header. */
const decodeHeader = (s: string) =>
  s.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );

function splitHead(part: string) {
  const at = part.indexOf('\n\n');
  const head = part
    .slice(0, at)
    .replace(/\r/g, '')
    .replace(/\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: part.slice(at + 2) };
}

function decodeBody(headers: Map<string, string>, body: string) {
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  return body;
}

export function parseEml(raw: string, file = ''): OutboxMessage {
  const { headers, body } = splitHead(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((p) => splitHead(p.replace(/^\r?\n/, '')))
    : [{ headers, body }];
  const partOf = (type: string) => {
    const p = parts.find((x) => (x.headers.get('content-type') ?? 'text/plain').startsWith(type));
    return p ? decodeBody(p.headers, p.body).trim() : '';
  };
  return {
    file,
    messageId: headers.get('message-id') ?? '',
    to: headers.get('to') ?? '',
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: partOf('text/plain'),
    html: partOf('text/html'),
  };
}

/** The raw .eml files in DATA_DIR/outbox, oldest first. */
export function outboxFiles(dataDir: string): { file: string; raw: string }[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => ({ file, raw: fs.readFileSync(path.join(dir, file), 'utf8') }));
}

/** Every message in DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMessage[] {
  return outboxFiles(dataDir).map(({ file, raw }) => parseEml(raw, file));
}

/** The messages sent to one address. */
export const mailTo = (dataDir: string, address: string) =>
  readOutbox(dataDir).filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));

/**
 * Waits, by condition, until the mail_outbox has nothing due: every owed e-mail sent, failed for
 * good, or waiting for a later try (a pass in flight finishes its rows first). Polls the table; it
 * never sleeps for a fixed time.
 */
export async function outboxDrained(db: Knex, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = Date.now();
    const due = await db('mailOutbox')
      .where('status', 'pending')
      .andWhere((q) => q.where('nextAttemptAt', '<=', now).orWhere('claimedUntil', '>=', now))
      .count({ n: '*' })
      .first();
    if (Number(due?.n ?? 0) === 0) return;
    if (Date.now() > until) throw new Error(`the outbox still has ${due?.n} e-mails due`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
