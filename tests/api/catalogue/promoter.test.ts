import type { Knex } from 'knex';
import { beforeEach, describe, expect, it } from 'vitest';
import { registeredClient, waitForEmail } from '../../support/accounts';
import { put, signedInAdmin } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { clearPromoterDetails, fillPromoterDetails, TEST_PROMOTER } from '../../support/promoter';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 39 §2, who the promoter is: its five details in Site Settings, no competition on sale
// without them, and every visitor shown them (site config, receipts, e-mails); the charities the
// site names, with their registration numbers.

const future = () => new Date(Date.now() + 10 * 86_400_000).toISOString();
const competition = (status: string) => ({
  title: 'Win a Kettle',
  description: 'A kettle',
  image: '/uploads/0123456789abcdef0123456789abcdef.png',
  ticketPrice: 1,
  totalTickets: 100,
  endDate: future(),
  autoWin: false,
  status,
  features: [],
  details: { category: 'Home' },
});
const MISSING = {
  code: 'promoter_details_missing',
  message: "Fill in the promoter's details in Site Settings first.",
};

describe.skipIf(engineUnavailable())(`the promoter's details on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });
  beforeEach(() => fillPromoterDetails(db));

  it('answers all five details flat, saves them normalised and audits the change', async () => {
    expect((await admin.get('/api/admin/settings/operator')).body).toEqual(TEST_PROMOTER);
    const res = await put(admin, '/api/admin/settings/operator', {
      operatorName: '  Quay Prizes Ltd ',
      operatorAddress: '2 Quay Street\nTruro\nTR1 9ZZ',
      companyNumber: ' sc 123456',
      phone: '+44 1632 960 555',
      email: ' hello@example.com ',
    });
    const saved = {
      operatorName: 'Quay Prizes Ltd',
      operatorAddress: '2 Quay Street\nTruro\nTR1 9ZZ',
      companyNumber: 'SC123456',
      phone: '+44 1632 960 555',
      email: 'hello@example.com',
    };
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(saved);
    expect((await admin.get('/api/admin/settings/operator')).body).toEqual(saved);
    const audit = await db('auditLog').where({ action: 'setting.operator' }).orderBy('id', 'desc').first();
    expect(JSON.parse(audit.afterJson)).toEqual(saved);
    expect(JSON.parse(audit.beforeJson)).toEqual(TEST_PROMOTER);

    await clearPromoterDetails(db);
    expect((await admin.get('/api/admin/settings/operator')).body).toEqual({
      operatorName: null,
      operatorAddress: null,
      companyNumber: null,
      phone: null,
      email: null,
    });
  });

  it('refuses a company number, phone or e-mail in the wrong form, or any detail missing (400)', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ companyNumber: '1234567' }, 'Company number must be 8 characters, like 01234567 or SC123456'],
      [{ companyNumber: 'XX123456' }, 'Company number must be 8 characters, like 01234567 or SC123456'],
      [{ phone: '12345' }, 'Phone must be a UK phone number, like 01632 960123'],
      [{ phone: '+1 212 555 0100' }, 'Phone must be a UK phone number, like 01632 960123'],
      [{ phone: 'call us' }, 'Phone must be a UK phone number, like 01632 960123'],
      [{ email: 'not-an-address' }, 'Email must be an e-mail address, like hello@example.com'],
      [{ operatorName: ' ' }, 'Operator name is required'],
      [{ companyNumber: undefined }, 'Company number must be 8 characters, like 01234567 or SC123456'],
    ];
    for (const [change, message] of refusals) {
      const res = await put(admin, '/api/admin/settings/operator', { ...TEST_PROMOTER, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.message, JSON.stringify(change)).toContain(message);
    }
    expect((await admin.get('/api/admin/settings/operator')).body).toEqual(TEST_PROMOTER);
  });

  it('refuses to create an active competition without them (409), and creates it once they are set', async () => {
    await clearPromoterDetails(db);
    const refused = await admin.post('/api/admin/competitions', competition('active'));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(MISSING);
    expect(await db('competitions').where({ title: 'Win a Kettle' })).toHaveLength(0);

    // One detail set is not enough.
    await put(admin, '/api/admin/settings/operator', TEST_PROMOTER);
    await db('siteSettings').where({ key: 'operator_phone' }).delete();
    expect((await admin.post('/api/admin/competitions', competition('active'))).body).toMatchObject(MISSING);

    // A competition that is not on sale may be prepared meanwhile.
    const draft = await admin.post('/api/admin/competitions', competition('archived'));
    expect(draft.status, draft.text).toBe(201);

    await fillPromoterDetails(db);
    const created = await admin.post('/api/admin/competitions', competition('active'));
    expect(created.status, created.text).toBe(201);
  });

  it('refuses to make a competition active without them (409), but edits an active one', async () => {
    const draft = (await admin.post('/api/admin/competitions', competition('archived'))).body;
    const live = (await admin.post('/api/admin/competitions', competition('active'))).body;
    await clearPromoterDetails(db);

    const refused = await put(admin, `/api/admin/competitions/${draft.id}`, { status: 'active' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(MISSING);
    expect((await db('competitions').where({ id: draft.id }).first()).status).toBe('archived');

    // Already on sale: other edits go through (it does not "become" active).
    const edited = await put(admin, `/api/admin/competitions/${live.id}`, { title: 'Win a Toaster' });
    expect(edited.status, edited.text).toBe(200);
    // A competition inserted directly (a test fixture) is untouched by the rule.
    expect(await insertCompetition(db, { status: 'active' })).toBeGreaterThan(0);

    await fillPromoterDetails(db);
    const opened = await put(admin, `/api/admin/competitions/${draft.id}`, { status: 'active' });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.status).toBe('active');
  });

  it('shows every visitor the promoter and the charities, and nothing private', async () => {
    const visitor = new TestClient(server.url);
    const config = (await visitor.get('/api/site-config')).body;
    expect(config.promoter).toEqual({
      name: TEST_PROMOTER.operatorName,
      companyNumber: TEST_PROMOTER.companyNumber,
      address: TEST_PROMOTER.operatorAddress,
      phone: TEST_PROMOTER.phone,
      email: TEST_PROMOTER.email,
    });
    expect(Object.keys(config).sort()).toEqual([
      'charities',
      'payments',
      'promoter',
      'siteName',
      'supportEmail',
    ]);
    // The admin's settings stay the admin's.
    expect((await visitor.get('/api/admin/settings/operator')).status).toBe(401);
    expect((await visitor.get('/api/admin/settings/charities')).status).toBe(401);
  });

  it('keeps the named charities with their registration numbers, and refuses a malformed one', async () => {
    expect((await admin.get('/api/admin/settings/charities')).body).toEqual({ charities: [] });
    const charities = [
      { name: 'Example Hospice Trust', registrationNumber: '1234567' },
      { name: 'Example Sea Rescue', registrationNumber: 'sc012345' },
      { name: 'Example Dogs NI', registrationNumber: 'NIC100001' },
    ];
    const saved = await put(admin, '/api/admin/settings/charities', { charities });
    expect(saved.status, saved.text).toBe(200);
    const normalised = [charities[0], { ...charities[1], registrationNumber: 'SC012345' }, charities[2]];
    expect(saved.body).toEqual({ charities: normalised });
    expect((await admin.get('/api/admin/settings/charities')).body).toEqual({ charities: normalised });
    expect((await new TestClient(server.url).get('/api/site-config')).body.charities).toEqual(normalised);
    expect(await db('auditLog').where({ action: 'setting.charities' })).toHaveLength(1);

    for (const body of [
      { charities: [{ name: 'No Number' }] },
      { charities: [{ name: 'Bad Number', registrationNumber: '12' }] },
      { charities: [{ name: ' ', registrationNumber: '1234567' }] },
      { charities: 'Example Hospice Trust, 1234567' },
      { charities: Array.from({ length: 13 }, (_, i) => ({ name: `C${i}`, registrationNumber: '1234567' })) },
    ]) {
      const res = await put(admin, '/api/admin/settings/charities', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.get('/api/admin/settings/charities')).body).toEqual({ charities: normalised });

    // An empty list: the site names none.
    expect((await put(admin, '/api/admin/settings/charities', { charities: [] })).body).toEqual({
      charities: [],
    });
  });

  it('names the promoter at the foot of every e-mail, as Site Settings name it when it is sent', async () => {
    const { body } = await registeredClient(server.url);
    const mail = await waitForEmail(server.database.dataDir, body.email, 'Promoter:');
    for (const detail of [
      `Promoter: ${TEST_PROMOTER.operatorName}`,
      `Company number ${TEST_PROMOTER.companyNumber}`,
      '1 Example Street, Truro, TR1 9ZZ',
      `Phone ${TEST_PROMOTER.phone}`,
      TEST_PROMOTER.email,
    ]) {
      expect(mail).toContain(detail);
    }
  });
});
