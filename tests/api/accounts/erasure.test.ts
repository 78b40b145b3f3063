import type { Knex } from 'knex';
import { Secret, TOTP } from 'otpauth';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { purgeStaleSkillAttempts } from '../../../api/catalogue/skill/attempts';
import { EventBus } from '../../../api/platform/events';
import { startSweeper } from '../../../api/tickets/expirySweeper';
import { SKILL_ATTEMPT_WINDOW_MS } from '../../../contract/skill';
import { registration, verifiedClient, waitForEmail } from '../../support/accounts';
import { buyWithCard, signedInAdmin } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { useTestServer } from '../../support/testServer';

// Issue 35 §9: after DELETE /api/account nothing names the person, except what a stated legal duty
// keeps (docs/compliance.md#personal-data-kept-after-deletion). The search reads the table list
// from the database itself, so a table added later is searched without editing this test.

/** Columns that keep personal data on purpose, each with its reason in docs/compliance.md. */
const KEPT: ReadonlyArray<string> = [];

const TEXT_TYPE = /char|text|clob|json|enum/i;

/** Every text-like column of every table, from the engine's own catalogue. */
async function textColumns(db: Knex): Promise<Array<{ table: string; column: string }>> {
  if (testEngine() === 'mysql') {
    const [rows] = (await db.raw(
      `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS d FROM information_schema.COLUMNS
       WHERE TABLE_SCHEMA = DATABASE()`,
    )) as [Array<Record<string, string>>];
    return rows
      .filter((r) => TEXT_TYPE.test(String(r.d)))
      .map((r) => ({ table: String(r.t), column: String(r.c) }));
  }
  const tables = (await db.raw(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  )) as Array<{ name: string }>;
  const columns: Array<{ table: string; column: string }> = [];
  for (const { name } of tables) {
    const info = (await db.raw(`PRAGMA table_info(${JSON.stringify(name)})`)) as Array<{
      name: string;
      type: string;
    }>;
    for (const c of info) if (TEXT_TYPE.test(c.type)) columns.push({ table: name, column: c.name });
  }
  return columns;
}

/** "table.column" for every column holding any of the needles (case-insensitive). */
async function columnsNaming(db: Knex, needles: string[]): Promise<string[]> {
  const found = new Set<string>();
  const columns = await textColumns(db);
  expect(columns.length).toBeGreaterThan(50); // the catalogue was read
  for (const { table, column } of columns) {
    for (const needle of needles) {
      const rows = (await db
        .from(db.raw('??', [table]))
        .whereRaw('lower(??) like ?', [column, `%${needle.toLowerCase()}%`])
        .count({ n: '*' })) as Array<{ n: number | string }>;
      if (Number(rows[0]!.n) > 0) found.add(`${table}.${column}`);
    }
  }
  return [...found].sort();
}

let people = 400;
const codeFor = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() });

describe.skipIf(engineUnavailable())(`erasure on ${testEngine()}`, () => {
  let url: string;
  let dataDir: string;
  let db: Knex;
  useTestServer(
    (server) => {
      url = server.url;
      dataDir = server.database.dataDir;
      db = server.database.db;
    },
    { env: { ACCOUNT_EMAILS_PER_ADDRESS: '1000' } },
  );

  /** A customer who has used every feature that stores something about them. */
  async function busyCustomer(admin: TestClient) {
    const tag = `${process.pid}${Date.now().toString(36)}`;
    const person = registration({
      username: `erasable${tag}`,
      email: `erasable.${tag}@example.co.uk`,
      firstName: 'Zebedee',
      lastName: `Quartermaine${tag}`,
      // Unique to this person, so that nobody else's row matches.
      phoneNumber: `07700 9${String(++people).padStart(5, '0')}`,
    });
    const newEmail = `moved.${tag}@example.co.uk`;
    const { client, user } = await verifiedClient(url, dataDir, person);
    const competitionId = await insertCompetition(db);
    // A wrong answer to the skill question (counted per account), then the right one.
    await client.post(`/api/competitions/${competitionId}/skill-answer`, { answer: 'wrong' });
    await buyWithCard(client, competitionId, [5, 6]);
    // A change of address asked for and not yet confirmed: the token holds the new address.
    const change = await client.post('/api/account/email', { email: newEmail, password: person.password });
    expect(change.status, change.text).toBe(200);
    await waitForEmail(dataDir, newEmail, '/verify-email?token=');
    const setup = await client.post('/api/account/2fa/setup', {});
    const enabled = await client.post('/api/account/2fa/enable', {
      code: codeFor(setup.body.secret),
      password: person.password,
    });
    expect(enabled.status, enabled.text).toBe(200);
    const complaint = await client.post('/api/complaints', {
      subject: `About ${person.lastName}`,
      message: `I am ${person.firstName} ${person.lastName}, call me on ${person.phoneNumber} or ${person.email}.`,
    });
    expect(complaint.status, complaint.text).toBe(201);
    const complaintRow = await db('complaints').where({ userId: user.id }).first();
    const reply = await admin.post(`/api/admin/complaints/${complaintRow.id}/reply`, {
      message: `Dear ${person.firstName} ${person.lastName}, we are looking into it.`,
    });
    expect(reply.status, reply.text).toBe(200);
    const postal = await admin.post(`/api/admin/competitions/${competitionId}/postal-entries`, {
      name: `${person.firstName} ${person.lastName}`,
      email: person.email,
      address: '7 Lemon Street\nTruro',
      postcode: 'TR1 2PN',
      receivedAt: new Date().toISOString().slice(0, 10),
      answer: '365',
      userId: user.id,
    });
    expect(postal.status, postal.text).toBe(201);
    // The delivery address in My Profile (migration 033) names the person too.
    const address = await client.request('PUT', '/api/user/delivery-address', {
      line1: `9 ${person.lastName} Road`,
      town: 'Truro',
      postcode: 'TR1 2PN',
    });
    expect(address.status, address.text).toBe(200);
    return { client, user, person, newEmail, competitionId };
  }

  it('exports the complaints and postal entries with the rest', async () => {
    const { client: admin } = await signedInAdmin(url);
    const { client, person } = await busyCustomer(admin);
    const res = await client.get('/api/account/export');
    expect(res.status).toBe(200);
    expect(res.body.complaints).toMatchObject([
      {
        subject: `About ${person.lastName}`,
        status: 'responded',
        replies: [{ message: expect.stringContaining('we are looking into it') }],
      },
    ]);
    expect(res.body.postalEntries).toMatchObject([
      { name: `${person.firstName} ${person.lastName}`, email: person.email, postcode: 'TR1 2PN' },
    ]);
  });

  it('leaves no table naming the person after DELETE /api/account, but for what the law keeps', async () => {
    const { client: admin } = await signedInAdmin(url);
    const { client, user, person, newEmail, competitionId } = await busyCustomer(admin);
    const needles = [
      person.email,
      newEmail,
      person.lastName,
      person.username,
      person.phoneNumber,
      person.phoneNumber.replaceAll(' ', ''),
    ];
    expect(await columnsNaming(db, needles)).not.toEqual([]); // the search finds them before
    // Someone else who shares the first name keeps their record.
    const bystander = { name: `${person.firstName} Bystander`, email: `bystander.${user.id}@example.co.uk` };
    const theirs = await admin.post(`/api/admin/competitions/${competitionId}/postal-entries`, {
      ...bystander,
      address: '1 Boscawen Street\nTruro',
      postcode: 'TR1 2QU',
      receivedAt: new Date().toISOString().slice(0, 10),
      answer: '365',
    });
    expect(theirs.status, theirs.text).toBe(201);

    const res = await client.request('DELETE', '/api/account', { password: person.password });
    expect(res.status, res.text).toBe(200);

    const left = (await columnsNaming(db, needles)).filter((c) => !KEPT.includes(c));
    expect(left).toEqual([]);
    // Neither secret nor hashes that are the person's alone survive.
    expect(await db('twoFactor').where({ userId: user.id })).toEqual([]);
    expect(await db('twoFactorRecoveryCodes').where({ userId: user.id })).toEqual([]);
    expect(await db('skillAttempts').where({ attempter: `u:${user.id}` })).toEqual([]);
    // The admin's mail log cannot find them by their old or new address.
    for (const address of [person.email, newEmail]) {
      const found = await admin.get(`/api/admin/emails?search=${encodeURIComponent(address)}`);
      expect(found.status).toBe(200);
      expect(found.body).toEqual([]);
    }
    expect(await db('postalEntries').where({ email: bystander.email }).first()).toMatchObject(bystander);
    expect(await columnsNaming(db, [bystander.name])).toEqual([
      'audit_log.after_json',
      'postal_entries.name',
    ]);
    // The complaint stays on the operator's record (reference, dates, status), without its text.
    const complaint = await db('complaints').where({ userId: user.id }).first();
    expect(complaint).toMatchObject({ status: 'responded' });
  });

  it('purges skill attempts once their window has passed, from the sweeper, and keeps those inside it', async () => {
    const competitionId = await insertCompetition(db);
    const now = Date.now();
    const old = now - SKILL_ATTEMPT_WINDOW_MS - 1;
    await db('skillAttempts').insert([
      { competitionId, attempter: 'g:old', wrongAt: JSON.stringify([old]), updatedAt: old },
      { competitionId, attempter: 'g:recent', wrongAt: JSON.stringify([now - 1000]), updatedAt: now - 1000 },
    ]);
    const attempters = async () =>
      (await db('skillAttempts').where({ competitionId }).orderBy('attempter')).map(
        (r: { attempter: string }) => r.attempter,
      );
    // The server's sweeper runs the purge on its timer (faked: no waiting).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stop = startSweeper(
        { db, events: new EventBus(), ttlSeconds: 600 },
        pino({ level: 'silent' }),
        1000,
        [{ name: 'stale skill attempts', run: purgeStaleSkillAttempts }],
      );
      vi.advanceTimersByTime(1000);
      await stop(); // waits for the sweep the tick started
    } finally {
      vi.useRealTimers();
    }
    expect(await attempters()).toEqual(['g:recent']);
    // Called directly, once the recent one's window has passed too.
    expect(await purgeStaleSkillAttempts(db, now + SKILL_ATTEMPT_WINDOW_MS)).toBeGreaterThanOrEqual(1);
    expect(await attempters()).toEqual([]);
  });
});
