import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import {
  announceCompetitionOpened,
  endingSoonRecipients,
  runEndingSoonJob,
} from '../../../api/accounts/marketing/campaigns';
import type { AppDeps } from '../../../api/platform/context';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { mailTo, outboxDrained, outboxFiles } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Marketing e-mails (docs/emails.md#marketing-e-mails): who gets 'Ending soon' and 'New competition
// live' (consent, a confirmed address, no break), the daily allowance (waits and drops in the mail
// log), RFC 8058 one-click unsubscribe from a real .eml, and the admin's Campaigns page.

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe.skipIf(engineUnavailable())(`marketing e-mails on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let deps: AppDeps;
  let dataDir: string;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
    deps = s.deps;
    dataDir = s.database.dataDir;
  });

  let seq = 0;
  /** A customer as the rules see them: consent, a confirmed address and a break, each switchable. */
  async function person(f: { optedIn?: boolean; confirmed?: boolean; breakUntil?: number } = {}) {
    seq++;
    const email = `mk${seq}-${Date.now()}@example.com`;
    const id = await insertUser(db, { username: `mk${seq}x${Date.now()}`, email, firstName: `Kim${seq}` });
    await db('users')
      .where({ id })
      .update({
        marketingEmails: f.optedIn ?? true,
        marketingEmailsUpdatedAt: Date.now(),
        emailVerifiedAt: (f.confirmed ?? true) ? Date.now() : null,
        selfExcludedUntil: f.breakUntil ?? null,
      });
    return { id, email };
  }
  /** Nobody from an earlier test is opted in: each test counts only its own customers. */
  const everyoneOptedOut = () => db('users').update({ marketingEmails: false });
  const subjectsTo = (email: string) => mailTo(dataDir, email).map((m) => m.subject);
  const rawTo = (email: string) =>
    outboxFiles(dataDir).find(({ raw }) => new RegExp(`^To: .*${email}`, 'mi').test(raw))!.raw;
  /** The unfolded value of one header of a raw message. */
  const header = (raw: string, name: string) => {
    const head = raw
      .slice(0, raw.indexOf('\n\n'))
      .replace(/\r/g, '')
      .replace(/\n[ \t]+/g, ' ');
    return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1];
  };
  const consentOf = async (id: number) =>
    Boolean((await db('users').where({ id }).first('marketingEmails')).marketingEmails);

  it('ending soon reaches opted-in, confirmed customers not on a break who entered or watch it, once', async () => {
    await everyoneOptedOut();
    const now = Date.now();
    const endDate = now + 20 * HOUR;
    const id = await insertCompetition(db, { title: 'Ending Rolex', endDate });
    const entrant = await person();
    const watcher = await person();
    const bystander = await person();
    const unconfirmed = await person({ confirmed: false });
    const onBreak = await person({ breakUntil: now + 30 * DAY });
    const optedOut = await person({ optedIn: false });
    // A break taken on another account of the same mailbox binds this one too (the exclusion register).
    const registered = await person();
    await db('users')
      .where({ id: registered.id })
      .update({ mailboxKey: `mk-test-${registered.id}` });
    await db('exclusionRegister').insert({
      kind: 'mailbox',
      keyHash: `mk-test-${registered.id}`,
      endsAt: now + 30 * DAY,
      createdAt: now,
      updatedAt: now,
    });
    for (const p of [entrant, unconfirmed, onBreak, optedOut, registered])
      await sellTickets(db, id, p.id, [(p.id % 90) + 1]);
    await db('watchlist').insert({ userId: watcher.id, competitionId: id, createdAt: now });

    expect((await endingSoonRecipients(db, id, now)).map((r) => r.userId)).toEqual([entrant.id, watcher.id]);
    const heard: unknown[] = [];
    const stopListening = deps.events.subscribe('competition.endingSoon', (e) => heard.push(e));
    const [outcome] = await runEndingSoonJob(deps, now);
    stopListening();
    // The web push's cue, once per competition.
    expect(heard).toEqual([{ competitionId: id, campaignId: outcome!.campaignId }]);
    expect(outcome).toMatchObject({
      kind: 'ending-soon',
      competitionId: id,
      owed: 2,
      waiting: 0,
      dropped: 0,
    });
    await outboxDrained(db);
    expect(subjectsTo(entrant.email)).toEqual(['Ending soon: Ending Rolex']);
    expect(subjectsTo(watcher.email)).toEqual(['Ending soon: Ending Rolex']);
    for (const p of [bystander, unconfirmed, onBreak, optedOut, registered])
      expect(subjectsTo(p.email)).toEqual([]);
    // Once per competition, however often the job runs.
    expect(await runEndingSoonJob(deps, now + 60_000)).toEqual([]);
  });

  it('goes ENDING_SOON_NOTICE_MINUTES before the close, within a minute of that moment', async () => {
    await everyoneOptedOut();
    const now = Date.now();
    const notice = deps.config.marketing.endingSoonNoticeMs;
    expect(notice).toBe(1440 * 60_000);
    const id = await insertCompetition(db, { title: 'Timed prize', endDate: now + notice + 30_000 });
    const p = await person();
    await db('watchlist').insert({ userId: p.id, competitionId: id, createdAt: now });
    expect((await runEndingSoonJob(deps, now)).map((o) => o.competitionId)).not.toContain(id);
    const due = await runEndingSoonJob(deps, now + 30_000);
    expect(due.map((o) => o.competitionId)).toContain(id);
  });

  it('new competition live reaches every opted-in, confirmed customer not on a break, once', async () => {
    await everyoneOptedOut();
    const now = Date.now();
    const id = await insertCompetition(db, { title: 'Fresh Tesla', endDate: now + 5 * DAY });
    const yes = await person();
    const unconfirmed = await person({ confirmed: false });
    const onBreak = await person({ breakUntil: now + DAY });
    const optedOut = await person({ optedIn: false });
    const outcome = await announceCompetitionOpened(deps, id, now);
    expect(outcome).toMatchObject({ kind: 'new-competition', owed: 1, waiting: 0, dropped: 0 });
    expect(await announceCompetitionOpened(deps, id, now)).toBeNull();
    await outboxDrained(db);
    expect(subjectsTo(yes.email)).toEqual(['New competition live: Fresh Tesla']);
    for (const p of [unconfirmed, onBreak, optedOut]) expect(subjectsTo(p.email)).toEqual([]);
    // A closed or unknown competition is not announced.
    const ended = await insertCompetition(db, { status: 'ended', endDate: now - HOUR });
    expect(await announceCompetitionOpened(deps, ended, now)).toBeNull();
    expect(await announceCompetitionOpened(deps, 999_999, now)).toBeNull();
  });

  it('a big audience is sent by the outbox in the background, each once', async () => {
    await everyoneOptedOut();
    const people = [];
    for (let i = 0; i < 60; i++) people.push(await person());
    const id = await insertCompetition(db, { title: 'Big launch', endDate: Date.now() + 5 * DAY });
    expect(await announceCompetitionOpened(deps, id)).toMatchObject({ owed: 60 });
    await outboxDrained(db);
    for (const p of people) expect(subjectsTo(p.email)).toEqual(['New competition live: Big launch']);
  });

  it('an admin creating an active competition announces it', async () => {
    await everyoneOptedOut();
    const p = await person();
    const { client: admin } = await signedInAdmin(server.url);
    const created = await admin.post('/api/admin/competitions', {
      title: 'Admin launch',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 3 * DAY).toISOString(),
      details: { category: 'cash' },
    });
    expect(created.status, created.text).toBe(201);
    // The announcement follows the COMMIT: wait for its campaign row by condition.
    const until = Date.now() + 10_000;
    while (
      !(await db('marketingCampaigns')
        .where({ kind: 'new-competition', competitionId: created.body.id })
        .first())
    ) {
      if (Date.now() > until) throw new Error('no campaign');
      await new Promise((r) => setTimeout(r, 20));
    }
    await outboxDrained(db);
    expect(subjectsTo(p.email)).toEqual(['New competition live: Admin launch']);

    // An archived one made active opens too; an ended one reopened is not new.
    const campaignOf = (competitionId: number) =>
      db('marketingCampaigns').where({ kind: 'new-competition', competitionId }).first();
    const archived = await insertCompetition(db, { status: 'archived', endDate: Date.now() + 3 * DAY });
    const ended = await insertCompetition(db, { status: 'ended', endDate: Date.now() + 3 * DAY });
    for (const id of [ended, archived]) {
      const res = await admin.request('PUT', `/api/admin/competitions/${id}`, { status: 'active' });
      expect(res.status, res.text).toBe(200);
    }
    const deadline = Date.now() + 10_000;
    while (!(await campaignOf(archived))) {
      if (Date.now() > deadline) throw new Error('no campaign for the archived one made active');
      await new Promise((r) => setTimeout(r, 20));
    }
    await outboxDrained(db);
    expect(await campaignOf(ended)).toBeUndefined();
  });

  it('at most MARKETING_EMAILS_PER_DAY a day: the next waits for the allowance or is dropped, and the mail log says which', async () => {
    await everyoneOptedOut();
    const now = Date.now();
    const p = await person();
    const first = await insertCompetition(db, { title: 'Cap one', endDate: now + 10 * DAY });
    const second = await insertCompetition(db, { title: 'Cap two', endDate: now + 10 * DAY });
    const closing = await insertCompetition(db, { title: 'Cap closing', endDate: now + 2 * HOUR });
    await db('watchlist').insert({ userId: p.id, competitionId: closing, createdAt: now });

    expect(await announceCompetitionOpened(deps, first, now)).toMatchObject({ owed: 1 });
    expect(await announceCompetitionOpened(deps, second, now + 1000)).toMatchObject({ owed: 0, waiting: 1 });
    const [soon] = (await runEndingSoonJob(deps, now + 2000)).filter((o) => o.competitionId === closing);
    expect(soon).toMatchObject({ owed: 0, waiting: 0, dropped: 1 });
    await outboxDrained(db);
    expect(subjectsTo(p.email)).toEqual(['New competition live: Cap one']);

    const log = await db('mailLog')
      .where({ userId: p.id })
      .orderBy('id')
      .select('subject', 'status', 'error');
    expect(log.map((r) => [r.subject, r.status])).toEqual([
      ['New competition live: Cap one', 'sent'],
      ['New competition live: Cap two', 'waiting'],
      ['Ending soon: Cap closing', 'dropped'],
    ]);
    expect(log[1].error).toContain(new Date(now + DAY).toISOString());
    // The admin's 'E-mails sent' shows both.
    const { client: admin } = await signedInAdmin(server.url);
    const listed = await admin.get(`/api/admin/emails?search=${encodeURIComponent(p.email)}`);
    expect(listed.body.map((m: { status: string }) => m.status).sort()).toEqual([
      'dropped',
      'sent',
      'waiting',
    ]);

    // A day later the allowance frees and the waiting one goes.
    await deps.mailer.outbox.drainOnce(now + DAY - 1000);
    expect(subjectsTo(p.email)).toHaveLength(1);
    await deps.mailer.outbox.drainOnce(now + DAY + 1000);
    expect(subjectsTo(p.email)).toEqual(['New competition live: Cap one', 'New competition live: Cap two']);
  });

  it('carries RFC 8058 headers, and the link from the real .eml unsubscribes with one POST: no cookie, no CSRF', async () => {
    await everyoneOptedOut();
    const p = await person();
    const id = await insertCompetition(db, { title: 'Header prize', endDate: Date.now() + 4 * DAY });
    const outcome = (await announceCompetitionOpened(deps, id))!;
    await outboxDrained(db);
    const raw = rawTo(p.email);
    expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const listUnsubscribe = header(raw, 'List-Unsubscribe')!;
    const match = /^<(https?:\/\/[^>]+)>$/.exec(listUnsubscribe);
    expect(match, listUnsubscribe).not.toBeNull();
    const link = new URL(match![1]!);
    expect(link.origin).toBe(new URL(deps.config.publicUrl).origin);
    expect(link.pathname).toBe('/api/unsubscribe');
    // The body links the same URL.
    expect(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(link.search.slice(1));

    // As a mail client sends it: no cookie, no CSRF token.
    const res = await fetch(`${server.url}${link.pathname}${link.search}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.json()).toEqual({
      unsubscribed: true,
      message: 'You will get no more marketing e-mails from us.',
    });
    expect(await consentOf(p.id)).toBe(false);
    const unsub = await db('marketingUnsubscribes').where({ userId: p.id });
    expect(unsub).toMatchObject([{ kind: 'new-competition', campaignId: outcome.campaignId }]);
    // Again: still 200, nothing more recorded.
    const again = await fetch(`${server.url}${link.pathname}${link.search}`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(await db('marketingUnsubscribes').where({ userId: p.id })).toHaveLength(1);

    // The Campaigns page counts it.
    const { client: admin } = await signedInAdmin(server.url);
    const campaigns = await admin.get('/api/admin/campaigns');
    expect(campaigns.status).toBe(200);
    expect(campaigns.body.find((c: { id: number }) => c.id === outcome.campaignId)).toMatchObject({
      kind: 'new-competition',
      competitionId: id,
      title: 'Header prize',
      sent: 1,
      waiting: 0,
      dropped: 0,
      unsubscribed: 1,
    });
    // Unsubscribed now: the next marketing e-mail is not sent.
    const later = await insertCompetition(db, {
      title: 'After unsubscribing',
      endDate: Date.now() + 4 * DAY,
    });
    expect(await announceCompetitionOpened(deps, later)).toMatchObject({ owed: 0 });
  });

  it('a tampered token is a 400 and changes nothing; only the exact path skips the CSRF check', async () => {
    await everyoneOptedOut();
    const victim = await person();
    const attacker = await person();
    const id = await insertCompetition(db, { title: 'Tamper prize', endDate: Date.now() + 4 * DAY });
    await announceCompetitionOpened(deps, id);
    await outboxDrained(db);
    const token = new URL(
      /<([^>]+)>/.exec(header(rawTo(attacker.email), 'List-Unsubscribe')!)![1]!,
    ).searchParams.get('token')!;
    const [, kind, campaign, sig] = token.split('.');
    const flipped = `${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`;
    const forged = [
      `${victim.id}.${kind}.${campaign}.${sig}`, // the attacker's signature on the victim's id
      `${attacker.id}.${kind}.${campaign}.${flipped}`,
      `${attacker.id}.ending-soon.${campaign}.${sig}`,
      'garbage',
    ];
    for (const bad of forged) {
      const res = await fetch(`${server.url}/api/unsubscribe?token=${encodeURIComponent(bad)}`, {
        method: 'POST',
      });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).message).toBe('This unsubscribe link is not valid.');
    }
    const missing = await fetch(`${server.url}/api/unsubscribe`, { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(await consentOf(victim.id)).toBe(true);
    expect(await consentOf(attacker.id)).toBe(true);
    expect(await db('marketingUnsubscribes').whereIn('userId', [victim.id, attacker.id])).toHaveLength(0);

    // Another spelling of the path, or any other path, still needs the CSRF token.
    for (const path of [`/API/unsubscribe?token=${token}`, `/api/unsubscribe/?token=${token}`]) {
      expect((await fetch(`${server.url}${path}`, { method: 'POST' })).status, path).toBe(403);
    }
    const noToken = new TestClient(server.url);
    expect(
      (await noToken.request('PUT', '/api/account/preferences', { marketingEmails: false })).status,
    ).toBe(403);
    expect(await consentOf(attacker.id)).toBe(true);
  });

  it('GET shows the page: asks first (changing nothing), then says it is done, with the way back in', async () => {
    await everyoneOptedOut();
    const p = await person();
    const id = await insertCompetition(db, { title: 'Page prize', endDate: Date.now() + 4 * DAY });
    await announceCompetitionOpened(deps, id);
    await outboxDrained(db);
    const url = /<([^>]+)>/.exec(header(rawTo(p.email), 'List-Unsubscribe')!)![1]!;
    const path = new URL(url).pathname + new URL(url).search;

    const ask = await fetch(`${server.url}${path}`);
    expect(ask.status).toBe(200);
    expect(ask.headers.get('content-type')).toMatch(/^text\/html/);
    const askHtml = await ask.text();
    expect(askHtml).toContain('Unsubscribe from');
    expect(askHtml).toContain('<form method="post"');
    expect(await consentOf(p.id)).toBe(true);

    // The page's button: a browser form POST gets the page back.
    const done = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    expect(doneHtml).toContain("You're unsubscribed");
    expect(doneHtml).toContain('href="/profile"');
    expect(await consentOf(p.id)).toBe(false);
    expect(await (await fetch(`${server.url}${path}`)).text()).toContain("You're unsubscribed");

    const bad = await fetch(
      `${server.url}/api/unsubscribe?token=${encodeURIComponent(`${p.id}.new-competition.1.x`)}`,
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('This unsubscribe link is not valid.');
  });

  it('the Campaigns route is for admins only', async () => {
    expect((await new TestClient(server.url).get('/api/admin/campaigns')).status).toBe(401);
    const { client } = await signedInCustomer(server.url);
    expect((await client.get('/api/admin/campaigns')).status).toBe(403);
  });
});
