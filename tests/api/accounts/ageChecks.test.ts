import { addDays, format, subYears } from 'date-fns';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { parseDay } from '../../../contract/age';
import { londonToday } from '../../../contract/londonTime';
import { registeredClient, registration } from '../../support/accounts';
import { patch, put, signedInAdmin } from '../../support/admin';
import { customer, hold } from '../../support/checkout';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Age checks (docs/product.md#age-checks): the date of birth at registration (18+ in the UK),
// asked of older accounts before their next hold or payment and then fixed; the admin's document
// check; and no prize over the threshold delivered to a winner not age-verified.

const UNDER_AGE = 'You must be 18 or over to enter.';
/** The date of birth of someone who is `years` old today in the UK, `days` after their birthday. */
const bornYearsAgo = (years: number, days = 0) =>
  format(addDays(subYears(parseDay(londonToday())!, years), -days), 'yyyy-MM-dd');

describe.skipIf(engineUnavailable())(`age checks on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const visitor = async () => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    return client;
  };
  const userRow = (id: number) =>
    db('users').where({ id }).first('dateOfBirth', 'ageVerifiedAt', 'ageVerifiedBy');
  const auditActions = async (id: number) =>
    (
      await db('auditLog')
        .where({ entityType: 'user', entityId: String(id) })
        .orderBy('id')
    ).map((r: { action: string }) => r.action);

  it('registration refuses under 18 (in UK time) and no date of birth, storing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [bornYearsAgo(18, -1), UNDER_AGE], // 18 tomorrow
      [bornYearsAgo(12), UNDER_AGE],
      [undefined, 'Enter your date of birth as a real date (YYYY-MM-DD)'],
      ['1990-02-30', 'Enter your date of birth as a real date (YYYY-MM-DD)'],
      ['01/04/1990', 'Enter your date of birth as a real date (YYYY-MM-DD)'],
      [format(addDays(new Date(), 2), 'yyyy-MM-dd'), 'Your date of birth cannot be in the future'],
    ];
    for (const [dateOfBirth, message] of cases) {
      const body = registration({ dateOfBirth });
      const res = await (await visitor()).post('/api/register', body);
      expect(res.status, String(dateOfBirth)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', message });
      expect(res.body.details.fields.dateOfBirth).toBe(message);
      expect(await db('users').where({ username: body.username })).toEqual([]);
    }
  });

  it('registration on the 18th birthday succeeds and stores the date of birth', async () => {
    const dateOfBirth = bornYearsAgo(18);
    const { user } = await registeredClient(server.url, { dateOfBirth });
    expect(user).toMatchObject({ dateOfBirth, ageVerifiedAt: null });
    expect(await userRow(user.id)).toMatchObject({ dateOfBirth, ageVerifiedAt: null });
  });

  it('an account without a date of birth gives it before holding or paying, once', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50 });
    const { client, user } = await customer(server.url, competitionId);
    // An account made before the date of birth was asked.
    await db('users').where({ id: user.id }).update({ dateOfBirth: null });

    const held = await client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [5] });
    expect(held.status).toBe(403);
    expect(held.body).toMatchObject({
      code: 'date_of_birth_required',
      message: 'Please give your date of birth before buying tickets.',
    });
    expect(await db('cartItems').where({ userId: user.id })).toEqual([]);
    const paid = await client.post('/api/create-payment-intent', {});
    expect(paid.status).toBe(403);
    expect(paid.body.code).toBe('date_of_birth_required');
    expect((await client.get('/api/user')).body.dateOfBirth).toBeNull();

    const young = await put(client, '/api/account/date-of-birth', { dateOfBirth: bornYearsAgo(17) });
    expect(young.status).toBe(400);
    expect(young.body.message).toBe(UNDER_AGE);
    expect((await userRow(user.id)).dateOfBirth).toBeNull();

    const given = await put(client, '/api/account/date-of-birth', { dateOfBirth: '1985-12-31' });
    expect(given.status, given.text).toBe(200);
    expect(given.body.dateOfBirth).toBe('1985-12-31');
    expect((await userRow(user.id)).dateOfBirth).toBe('1985-12-31');
    expect(await auditActions(user.id)).toContain('user.date_of_birth');

    const changed = await put(client, '/api/account/date-of-birth', { dateOfBirth: '1980-01-01' });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe(
      'Your date of birth is already recorded. Please contact us if it is wrong.',
    );
    expect((await userRow(user.id)).dateOfBirth).toBe('1985-12-31');

    await hold(client, competitionId, [5]);
  });

  it('a guest holds without a date of birth (asked at registration); signed out cannot set one', async () => {
    const competitionId = await insertCompetition(db);
    const guest = await visitor();
    await guest.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
    await hold(guest, competitionId, [3]);
    expect((await put(guest, '/api/account/date-of-birth', { dateOfBirth: '1990-01-01' })).status).toBe(401);
  });

  it('the admin sees the date of birth and marks the account age-verified (who, when, audited)', async () => {
    const { client: admin, user: adminUser } = await signedInAdmin(server.url);
    const { client: customerClient, user } = await registeredClient(server.url, {
      dateOfBirth: '1979-06-15',
    });
    const listed = (await admin.get('/api/admin/users')).body.find((u: { id: number }) => u.id === user.id);
    expect(listed).toMatchObject({ dateOfBirth: '1979-06-15', ageVerifiedAt: null });

    const refused = await customerClient.post(`/api/admin/users/${user.id}/age-verification`, {});
    expect(refused.status).toBe(403);
    expect((await userRow(user.id)).ageVerifiedAt).toBeNull();

    const before = Date.now();
    const verified = await admin.post(`/api/admin/users/${user.id}/age-verification`, {});
    expect(verified.status, verified.text).toBe(200);
    expect(Date.parse(verified.body.ageVerifiedAt)).toBeGreaterThanOrEqual(before);
    const row = await userRow(user.id);
    expect(Number(row.ageVerifiedAt)).toBe(Date.parse(verified.body.ageVerifiedAt));
    expect(row.ageVerifiedBy).toBe(adminUser.id);
    expect(await auditActions(user.id)).toContain('user.age_verified');
    // Asking again keeps the first check.
    const again = await admin.post(`/api/admin/users/${user.id}/age-verification`, {});
    expect(again.body.ageVerifiedAt).toBe(verified.body.ageVerifiedAt);

    // Deleting the account removes the date of birth; the record of the check stays.
    const gone = await customerClient.request('DELETE', '/api/account', { password: 'secret123' });
    expect(gone.status, gone.text).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ dateOfBirth: null, ageVerifiedBy: adminUser.id });
    expect((await userRow(user.id)).ageVerifiedAt).not.toBeNull();

    const noDate = await insertUser(db, { dateOfBirth: null });
    const early = await admin.post(`/api/admin/users/${noDate}/age-verification`, {});
    expect(early.status).toBe(409);
    expect((await admin.post('/api/admin/users/999999/age-verification', {})).status).toBe(404);
  });

  it('a prize over the threshold, or of no stated value, waits for the winner to be age-verified', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const settings = await put(admin, '/api/admin/settings/compliance', {
      complaintResponseDays: 14,
      ageCheckPrizeThreshold: 100,
    });
    expect(settings.status, settings.text).toBe(200);

    const drawn = async (prizeValuePence: number | null) => {
      const id = await insertCompetition(db, { status: 'ended' });
      await db('competitions').where({ id }).update({ prizeValuePence });
      const winner = await insertUser(db);
      await sellTickets(db, id, winner, [7]);
      expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(200);
      return { id, winner };
    };

    for (const value of [null, 100_01]) {
      const { id, winner } = await drawn(value);
      const refused = await patch(admin, `/api/admin/winners/${id}`, { prizeDelivered: true });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'age_verification_required',
        message:
          "The winner's age must be verified before this prize is marked delivered. Check an identity document, then mark the account age-verified in Users.",
      });
      expect((await db('draws').where({ competitionId: id }).first()).prizeDeliveredAt).toBeNull();
      expect((await admin.post(`/api/admin/users/${winner}/age-verification`, {})).status).toBe(200);
      expect((await patch(admin, `/api/admin/winners/${id}`, { prizeDelivered: true })).status).toBe(200);
    }

    // At or under the threshold: no check needed.
    const small = await drawn(100_00);
    const delivered = await patch(admin, `/api/admin/winners/${small.id}`, { prizeDelivered: true });
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.body.prizeDeliveredAt).toEqual(expect.any(String));
  });

  it('a competition states its prize value in pounds; a bad one is refused', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const body = {
      title: 'Valued prize',
      ticketPrice: 1,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'Cash' },
      status: 'archived',
    };
    const created = await admin.post('/api/admin/competitions', { ...body, prizeValue: 250.5 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.prizeValue).toBe(250.5);
    expect((await db('competitions').where({ id: created.body.id }).first()).prizeValuePence).toBe(25050);
    const cleared = await put(admin, `/api/admin/competitions/${created.body.id}`, { prizeValue: null });
    expect(cleared.body.prizeValue).toBeNull();
    const bad = await admin.post('/api/admin/competitions', { ...body, title: 'Bad value', prizeValue: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Prize value must be an amount in pounds');
  });
});
