import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyWithCard, del, patch, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

describe.skipIf(engineUnavailable())(`admin users on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  let adminId: number;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    const signedIn = await signedInAdmin(server.url);
    admin = signedIn.client;
    adminId = signedIn.user.id;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.stop();
  });

  it('lists users with the spec columns and no password hash', async () => {
    const { user } = await signedInCustomer(server.url);
    const res = await admin.get('/api/admin/users');
    expect(res.status).toBe(200);
    const row = res.body.find((u: { id: number }) => u.id === user.id);
    expect(row).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: 'Pat',
      lastName: 'Penhallow',
      phoneNumber: '07700 900123',
      role: 'user',
      siteCredit: 0,
      marketingEmails: false,
      emailVerified: false,
      createdAt: expect.any(String),
      twoFactorEnabled: false,
      twoFactorSetupRequired: false,
      deliveryAddress: null,
      dateOfBirth: '1990-04-01',
      ageVerifiedAt: null,
      selfExcludedUntil: null,
    });
    expect(res.text).not.toMatch(/password/i);
  });

  it('promotes and demotes; the change applies at once and ends their sockets so they rejoin with the new role', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const socket = await connectSocket(server.url, client.cookieHeader);
    sockets.push(socket);
    let ended = 0;
    socket.on('session:ended', () => ended++);

    const up = await patch(admin, `/api/admin/users/${user.id}/role`, { role: 'admin' });
    expect(up.status, up.text).toBe(200);
    expect(up.body.role).toBe('admin');
    await waitFor(() => ended === 1, 2000, 'session:ended');
    // Still signed in, now an admin.
    expect((await client.get('/api/admin/dashboard')).status).toBe(200);

    const down = await patch(admin, `/api/admin/users/${user.id}/role`, { role: 'user' });
    expect(down.status).toBe(200);
    expect((await client.get('/api/admin/dashboard')).status).toBe(403);
    const audit = await db('auditLog')
      .where({ entityType: 'user', entityId: String(user.id) })
      .orderBy('id');
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['user.role', 'user.role']);

    expect((await patch(admin, `/api/admin/users/${user.id}/role`, { role: 'owner' })).status).toBe(400);
    expect((await patch(admin, '/api/admin/users/999999/role', { role: 'admin' })).status).toBe(404);
  });

  it('never lets an admin demote or delete themself, nor remove the last admin', async () => {
    const self = await patch(admin, `/api/admin/users/${adminId}/role`, { role: 'user' });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('You cannot change your own role.');
    const selfDelete = await del(admin, `/api/admin/users/${adminId}`);
    expect(selfDelete.status).toBe(409);
    expect(selfDelete.body.message).toBe('You cannot delete your own account.');
    expect((await db('users').where({ id: adminId }).first()).role).toBe('admin');

    // A second admin can demote the first only while another admin remains.
    const otherId = await insertUser(db, { role: 'admin' });
    expect((await patch(admin, `/api/admin/users/${otherId}/role`, { role: 'user' })).status).toBe(200);
    // Only the signed-in admin is left: demoting them (here by the now-demoted account, through the
    // service, since the API never lets anyone but an admin ask) is refused.
    const { changeRole } = await import('../../../api/accounts/adminUsers');
    await expect(
      changeRole({ db, events: server.deps.events }, { id: otherId, username: 'other' }, adminId, 'user'),
    ).rejects.toMatchObject({ status: 409, message: 'The last admin cannot be demoted.' });
  });

  it('deletes a user: login and personal data go, orders and entries stay attributed to a deleted user', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const { client, user, password } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, id, [3]);
    await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [9] }); // a live hold
    const socket = await connectSocket(server.url, client.cookieHeader);
    sockets.push(socket);
    let ended = 0;
    socket.on('session:ended', () => ended++);

    const res = await del(admin, `/api/admin/users/${user.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('User deleted');
    await waitFor(() => ended === 1, 2000, 'session:ended');

    const row = await db('users').where({ id: user.id }).first();
    expect(row).toMatchObject({ firstName: null, lastName: null, phoneNumber: '', role: 'user' });
    expect(row.deletedAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(user.email);
    expect(JSON.stringify(row)).not.toContain(user.username);
    // Financial records stay.
    expect((await db('orders').where({ id: orderId }).first()).userId).toBe(user.id);
    expect(await db('userEntries').where({ orderId })).toHaveLength(1);
    expect(await db('tickets').where({ competitionId: id, number: 3 }).first()).toMatchObject({
      status: 'sold',
    });
    // The hold was released; the session is gone; the login no longer works; the name is free.
    expect(await db('tickets').where({ competitionId: id, number: 9 }).first()).toBeUndefined();
    expect((await client.get('/api/user')).status).toBe(401);
    const login = new TestClient(server.url);
    await login.fetchCsrfToken();
    expect((await login.post('/api/login', { username: user.username, password })).status).toBe(401);
    expect(
      (await signedInCustomer(server.url, { username: user.username, email: user.email })).user.username,
    ).toBe(user.username);
    // Not listed, and the public entries call them a former entrant.
    expect((await admin.get('/api/admin/users')).body.map((u: { id: number }) => u.id)).not.toContain(
      user.id,
    );
    const entries = await admin.get(`/api/competitions/${id}/entries`);
    expect(entries.body).toEqual([{ ownerName: 'Former entrant', ticketNumbers: [3] }]);
    // The audit row holds no personal data.
    const audit = await db('auditLog')
      .where({ action: 'user.delete', entityId: String(user.id) })
      .first();
    expect(audit.beforeJson).not.toContain(user.email);
    expect((await del(admin, `/api/admin/users/${user.id}`)).status).toBe(404);
  });
});
