import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleReferral } from '../../../api/accounts/referrals/referralRewards';
import { emailsTo, linkToken, registeredClient, verifiedClient, waitForEmail } from '../../support/accounts';
import { put, signedInAdmin } from '../../support/admin';
import { card, creditState } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Issue 37 §4 (docs/product.md#referrals): the referrer earns referralRewardPence of site credit,
// once, when the referred account has confirmed its address and paid at least £5 for an order;
// never for the same mailbox, card or address, while either is on a break, or past the monthly cap.

const PUBLIC_URL = 'https://prizes.example.test';
const VISA_DEBIT = '4000 0566 5566 5556';
let n = 0;
const mailbox = (name: string) => `${name}${process.pid}x${++n}`;

describe.skipIf(engineUnavailable())(`referrals on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let dataDir: string;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL });
    db = server.database.db;
    dataDir = server.database.dataDir;
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A customer with a referral code (made by asking for the link). */
  async function referrer(overrides: Record<string, unknown> = {}) {
    const r = await registeredClient(server.url, overrides);
    const link = await r.client.get('/api/account/referral');
    expect(link.status, link.text).toBe(200);
    return { ...r, id: r.user.id as number, code: link.body.code as string };
  }

  /** Holds one £`pence` ticket and starts the checkout; the client secret and order id. */
  async function startOrder(client: TestClient, pence = 500) {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: pence });
    const skill = await client.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
    expect(skill.body?.correct, skill.text).toBe(true);
    const held = await client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [7] });
    expect(held.status, held.text).toBe(201);
    const intent = await client.post('/api/create-payment-intent', {});
    expect(intent.status, intent.text).toBe(200);
    return intent.body as { clientSecret: string; orderId: number };
  }

  const confirm = (client: TestClient, clientSecret: string, cardNumber = '4242 4242 4242 4242') =>
    client.post('/api/payments/sandbox/confirm', { clientSecret, ...card({ cardNumber }) });

  async function pay(client: TestClient, pence = 500, cardNumber?: string) {
    const { clientSecret, orderId } = await startOrder(client, pence);
    const paid = await confirm(client, clientSecret, cardNumber);
    expect(paid.status, paid.text).toBe(200);
    return orderId;
  }

  /** The latest confirmation link's token for this address. */
  async function verifyToken(email: string) {
    await waitForEmail(dataDir, email, '/verify-email?token=');
    const mail = emailsTo(dataDir, email)
      .filter((m) => m.includes('/verify-email?token='))
      .at(-1)!;
    return linkToken(mail, '/verify-email');
  }

  async function verify(client: TestClient, email: string) {
    const res = await client.post('/api/verify-email', { token: await verifyToken(email) });
    expect(res.status, res.text).toBe(200);
  }

  const referralOf = async (referredUserId: number) =>
    db('referrals')
      .where({ referredUserId })
      .first('id', 'status', 'refusedReason', 'rewardPence', 'orderId');

  const rewardRows = (referrerId: number) =>
    db('creditTransactions').where({ userId: referrerId }).whereNotNull('referralId').select('referralId');

  it('GET /api/account/referral: a stable code, the public link, and nothing earned yet; 401 signed out', async () => {
    const { client } = await registeredClient(server.url);
    const first = await client.get('/api/account/referral');
    expect(first.status, first.text).toBe(200);
    expect(first.body.code).toMatch(/^[A-Z2-9]{8}$/);
    expect(first.body).toEqual({
      code: first.body.code,
      url: `${PUBLIC_URL}/?ref=${first.body.code}`,
      referred: 0,
      rewardedPence: 0,
    });
    expect((await client.get('/api/account/referral')).body.code).toBe(first.body.code);
    const { client: other } = await registeredClient(server.url);
    expect((await other.get('/api/account/referral')).body.code).not.toBe(first.body.code);
    const anonymous = await registeredClient(server.url);
    await anonymous.client.post('/api/logout', {});
    expect((await anonymous.client.get('/api/account/referral')).status).toBe(401);
  });

  it('an unknown code does not stop the registration and records no referral', async () => {
    const { user } = await registeredClient(server.url, { referralCode: 'NOSUCH99' });
    expect(await referralOf(user.id)).toBeUndefined();
    const { user: odd } = await registeredClient(server.url, { referralCode: '<script>' });
    expect(await referralOf(odd.id)).toBeUndefined();
  });

  it('pays the reward once, as a ledger row, when the order is paid and then the address confirmed', async () => {
    const ref = await referrer();
    // Codes are matched in any case.
    const referred = await registeredClient(server.url, { referralCode: ref.code.toLowerCase() });
    expect(await referralOf(referred.user.id)).toMatchObject({ status: 'pending' });
    const orderId = await pay(referred.client);
    expect(await referralOf(referred.user.id)).toMatchObject({ status: 'pending' });
    await verify(referred.client, referred.body.email);
    const referral = await referralOf(referred.user.id);
    expect(referral).toMatchObject({ status: 'rewarded', rewardPence: 500, orderId, refusedReason: null });
    expect(await rewardRows(ref.id)).toEqual([{ referralId: referral.id }]);
    const state = await creditState(db, ref.id);
    expect(state.balance).toBe(500);
    expect(state.ledger).toBe(500);
    // Another paid order, another settle: nothing more.
    await pay(referred.client);
    expect(await settleReferral(db, referred.user.id)).toBe('none');
    expect(await rewardRows(ref.id)).toHaveLength(1);
    expect((await ref.client.get('/api/account/referral')).body).toMatchObject({
      referred: 1,
      rewardedPence: 500,
    });
    // The referred customer earns nothing for being referred.
    expect((await creditState(db, referred.user.id)).balance).toBe(0);
  });

  it('pays it when the address is confirmed first and the order paid second; not for an order under £5', async () => {
    const ref = await referrer();
    const referred = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
    expect(await referralOf(referred.user.id)).toMatchObject({ status: 'pending' });
    await pay(referred.client, 499);
    expect(await referralOf(referred.user.id)).toMatchObject({ status: 'pending' });
    expect(await rewardRows(ref.id)).toHaveLength(0);
    const orderId = await pay(referred.client, 500);
    expect(await referralOf(referred.user.id)).toMatchObject({ status: 'rewarded', orderId });
    expect((await creditState(db, ref.id)).balance).toBe(500);
  });

  it('no reward for the same normalised mailbox', async () => {
    const name = mailbox('jo.smith');
    const ref = await referrer({ email: `${name}@gmail.com` });
    const referred = await verifiedClient(server.url, dataDir, {
      email: `${name.replaceAll('.', '')}+prizes@googlemail.com`,
      referralCode: ref.code,
    });
    await pay(referred.client);
    expect(await referralOf(referred.user.id)).toMatchObject({
      status: 'refused',
      refusedReason: 'same_mailbox',
    });
    expect(await rewardRows(ref.id)).toHaveLength(0);
    expect((await creditState(db, ref.id)).balance).toBe(0);
  });

  it('no reward for the same card, recognised by its gateway fingerprint', async () => {
    const ref = await referrer();
    await pay(ref.client, 500, VISA_DEBIT);
    const paid = await db('orders').where({ userId: ref.id }).first('cardFingerprint');
    expect(paid.cardFingerprint).toMatch(/^[0-9a-f]{32}$/);
    const referred = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
    await pay(referred.client, 500, VISA_DEBIT);
    expect(await referralOf(referred.user.id)).toMatchObject({
      status: 'refused',
      refusedReason: 'same_card',
    });
    expect((await creditState(db, ref.id)).balance).toBe(0);
  });

  it('no reward for the same postal address', async () => {
    const ref = await referrer();
    const address = { line1: '12 Harbour Street', town: 'Penzance', postcode: 'TR18 2AB' };
    expect((await put(ref.client, '/api/user/delivery-address', address)).status).toBe(200);
    const referred = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
    const same = { line1: '12, harbour street', town: 'PENZANCE', postcode: 'tr182ab' };
    const res = await put(referred.client, '/api/user/delivery-address', same);
    expect(res.status, res.text).toBe(200);
    await pay(referred.client);
    expect(await referralOf(referred.user.id)).toMatchObject({
      status: 'refused',
      refusedReason: 'same_address',
    });
  });

  it('no reward while the referrer, or the referred customer, is on a break', async () => {
    const ref = await referrer();
    const referred = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
    await db('users')
      .where({ id: ref.id })
      .update({ selfExcludedUntil: Date.now() + 86_400_000 });
    await pay(referred.client);
    expect(await referralOf(referred.user.id)).toMatchObject({
      status: 'refused',
      refusedReason: 'on_break',
    });

    const other = await referrer();
    const second = await registeredClient(server.url, { referralCode: other.code });
    await pay(second.client);
    // The referred customer starts a break after paying, before confirming the address.
    await db('users')
      .where({ id: second.user.id })
      .update({ selfExcludedUntil: Date.now() + 86_400_000 });
    await verify(second.client, second.body.email);
    expect(await referralOf(second.user.id)).toMatchObject({ status: 'refused', refusedReason: 'on_break' });
    expect((await creditState(db, other.id)).balance).toBe(0);
  });

  it('stops at referralRewardsPerMonth for one referrer in a UK month, and pays the reward set', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    expect((await admin.get('/api/admin/settings/referrals')).body).toEqual({
      referralReward: 5,
      referralRewardsPerMonth: 10,
    });
    const saved = await put(admin, '/api/admin/settings/referrals', {
      referralReward: 2.5,
      referralRewardsPerMonth: 1,
    });
    expect(saved.status, saved.text).toBe(200);
    try {
      const ref = await referrer();
      const first = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
      await pay(first.client);
      expect(await referralOf(first.user.id)).toMatchObject({ status: 'rewarded', rewardPence: 250 });
      const second = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
      await pay(second.client);
      expect(await referralOf(second.user.id)).toMatchObject({
        status: 'refused',
        refusedReason: 'monthly_cap',
      });
      // Last month's reward does not count against this month.
      await db('referrals')
        .where({ referredUserId: first.user.id })
        .update({ decidedAt: Date.now() - 40 * 86_400_000 });
      const third = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
      await pay(third.client);
      expect(await referralOf(third.user.id)).toMatchObject({ status: 'rewarded' });
      expect(await creditState(db, ref.id)).toMatchObject({ balance: 500, ledger: 500 });
      expect((await ref.client.get('/api/account/referral')).body).toMatchObject({
        referred: 3,
        rewardedPence: 500,
      });
    } finally {
      await db('siteSettings')
        .whereIn('key', ['referral_reward_pence', 'referral_rewards_per_month'])
        .delete();
    }
  });

  it('concurrency: two referrals of one referrer settling at once never pass the monthly cap', async () => {
    await db('siteSettings').insert({
      key: 'referral_rewards_per_month',
      value: '1',
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    try {
      const ref = await referrer();
      const friends = [];
      for (let i = 0; i < 3; i++) {
        const friend = await verifiedClient(server.url, dataDir);
        await pay(friend.client);
        friends.push(friend.user.id as number);
      }
      // Found pending after both events (as after a crash), then settled all at once.
      await db('referrals').insert(
        friends.map((referredUserId) => ({ referrerUserId: ref.id, referredUserId, createdAt: Date.now() })),
      );
      const settled = await Promise.all(friends.map((id) => settleReferral(db, id)));
      expect(settled.filter((s) => s === 'rewarded')).toHaveLength(1);
      expect(settled.filter((s) => s === 'monthly_cap')).toHaveLength(2);
      expect(await creditState(db, ref.id)).toMatchObject({ balance: 500, ledger: 500 });
    } finally {
      await db('siteSettings').where({ key: 'referral_rewards_per_month' }).delete();
    }
  });

  it('the admin sees each referral of a customer and why one was not paid', async () => {
    const ref = await referrer();
    const referred = await verifiedClient(server.url, dataDir, { referralCode: ref.code });
    await db('users')
      .where({ id: ref.id })
      .update({ selfExcludedUntil: Date.now() + 86_400_000 });
    await pay(referred.client);
    const { client: admin } = await signedInAdmin(server.url);
    const view = await admin.get(`/api/admin/customers/${ref.id}`);
    expect(view.status, view.text).toBe(200);
    expect(view.body.referrals).toEqual([
      expect.objectContaining({
        referredUsername: referred.body.username,
        status: 'refused',
        refusedReason: 'on_break',
        reason: 'One of them was on a break',
      }),
    ]);
  });

  it('concurrency: the confirmation and the payment racing, and settles racing, pay once', async () => {
    const ref = await referrer();
    const referred = await registeredClient(server.url, { referralCode: ref.code });
    const token = await verifyToken(referred.body.email);
    const { clientSecret } = await startOrder(referred.client);
    const [verified, paid] = await Promise.all([
      referred.client.post('/api/verify-email', { token }),
      confirm(referred.client, clientSecret),
    ]);
    expect(verified.status, verified.text).toBe(200);
    expect(paid.status, paid.text).toBe(200);
    const settles = await Promise.all(Array.from({ length: 6 }, () => settleReferral(db, referred.user.id)));
    expect(settles.filter((s) => s === 'rewarded')).toHaveLength(0);
    expect(await referralOf(referred.user.id)).toMatchObject({ status: 'rewarded' });
    expect(await rewardRows(ref.id)).toHaveLength(1);
    // The invariant, over the whole ledger: no referral has two reward rows, and every rewarded
    // referral paid exactly its reward to its referrer.
    const doubled = await db('creditTransactions')
      .whereNotNull('referralId')
      .groupBy('referralId')
      .havingRaw('count(*) > 1')
      .select('referralId');
    expect(doubled).toEqual([]);
    const unpaid = await db('referrals as r')
      .leftJoin('creditTransactions as c', 'c.referralId', 'r.id')
      .where('r.status', 'rewarded')
      .where('r.rewardPence', '>', 0)
      .whereNull('c.id')
      .select('r.id');
    expect(unpaid).toEqual([]);
    // The database itself refuses a second reward row for the referral.
    const { id: referralId } = await referralOf(referred.user.id);
    await expect(
      db('creditTransactions').insert({
        userId: ref.id,
        type: 'credit',
        amountPence: 500,
        description: 'Referral reward',
        referralId,
        createdAt: Date.now(),
      }),
    ).rejects.toThrow();
    expect(await creditState(db, ref.id)).toMatchObject({ balance: 500, ledger: 500 });

    // A referral found pending after both events (as after a crash): six settles race, one pays.
    const late = await verifiedClient(server.url, dataDir);
    await pay(late.client);
    await db('referrals').insert({
      referrerUserId: ref.id,
      referredUserId: late.user.id,
      createdAt: Date.now(),
    });
    const raced = await Promise.all(Array.from({ length: 6 }, () => settleReferral(db, late.user.id)));
    expect(raced.filter((s) => s === 'rewarded')).toHaveLength(1);
    const { id: lateId } = await referralOf(late.user.id);
    expect(await db('creditTransactions').where({ referralId: lateId })).toHaveLength(1);
    expect(await creditState(db, ref.id)).toMatchObject({ balance: 1000, ledger: 1000 });
  });

  it('a settle lost to a crash is made good when the referrer next opens their link', async () => {
    const ref = await referrer();
    const waiting = await registeredClient(server.url, { referralCode: ref.code });
    const late = await verifiedClient(server.url, dataDir);
    await pay(late.client);
    await db('referrals').insert({
      referrerUserId: ref.id,
      referredUserId: late.user.id,
      createdAt: Date.now(),
    });
    expect((await ref.client.get('/api/account/referral')).body).toMatchObject({
      referred: 2,
      rewardedPence: 500,
    });
    expect(await referralOf(late.user.id)).toMatchObject({ status: 'rewarded' });
    // One not ready (no confirmed address, no order) stays pending.
    expect(await referralOf(waiting.user.id)).toMatchObject({ status: 'pending' });
    expect(await creditState(db, ref.id)).toMatchObject({ balance: 500, ledger: 500 });
  });
});
