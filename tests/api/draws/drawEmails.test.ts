import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../support/admin';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// After a draw: the winner's e-mail, and 'The draw for X has been made: the winning number is N'
// to every other entrant, once each, with their numbers and the link to verify the draw.

describe.skipIf(engineUnavailable())(`draw e-mails on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    { env: { DRAW_AUTO_AFTER_SECONDS: '0', PUBLIC_URL: 'https://prizes.example.test' } },
  );

  it('writes to the winner and to every other entrant, once each', async () => {
    const id = await insertCompetition(db, { title: 'Seaside Cottage Break', totalTickets: 20 });
    const entrants = await Promise.all(
      ['ann', 'bob', 'cat', 'dan'].map(async (name) => {
        const userId = await insertUser(db, { username: `${name}${id}`, firstName: name.toUpperCase() });
        return { userId, email: `${name}${id}@example.com` };
      }),
    );
    const numbers = [[1, 2], [3], [4, 5, 6], [7]];
    for (const [i, e] of entrants.entries()) await sellTickets(db, id, e.userId, numbers[i]!);
    // Deleted accounts are written to no more.
    await db('users').where({ id: entrants[3]!.userId }).update({ deletedAt: Date.now() });
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });

    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    const { winningNumber } = (await db('draws').where({ competitionId: id }).first()) as {
      winningNumber: number;
    };
    const winnerIndex = numbers.findIndex((ns) => ns.includes(winningNumber));
    const live = entrants.slice(0, 3);
    const losers = live.filter((_, i) => i !== winnerIndex);
    const emails = entrants.map((e) => e.email);
    // The entrants' e-mails go in the background after the draw: wait for their log rows.
    const resultRows = () => db('mailLog').where({ template: 'draw-result' }).whereIn('recipient', emails);
    const started = Date.now();
    while ((await resultRows()).length < losers.length && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 20));
    }

    const subject = `The draw for Seaside Cottage Break has been made: the winning number is ${winningNumber}`;
    for (const e of losers) {
      const [mail] = mailTo(server.database.dataDir, e.email);
      expect(mailTo(server.database.dataDir, e.email)).toHaveLength(1);
      expect(mail!.subject).toBe(subject);
      const mine = numbers[entrants.indexOf(e)]!;
      expect(mail!.text).toContain(`Your numbers: ${mine.join(', ')}`);
      expect(mail!.text).toContain(`https://prizes.example.test/competitions/${id}#verify-draw`);
      expect(mail!.html).toContain(`href="https://prizes.example.test/competitions/${id}#verify-draw"`);
    }
    const rows = await db('mailLog').whereIn(
      'recipient',
      entrants.map((e) => e.email),
    );
    expect(
      rows
        .filter((r) => r.template === 'draw-result')
        .map((r) => r.recipient)
        .sort(),
    ).toEqual(losers.map((e) => e.email).sort());
    if (winnerIndex < 3) {
      // The winner gets their own e-mail (with the same verify link), not the result as well.
      const winnerMail = mailTo(server.database.dataDir, entrants[winnerIndex]!.email);
      expect(winnerMail.map((m) => m.subject)).toEqual([
        'You won "Seaside Cottage Break" with Westcountry Prizes!',
      ]);
      expect(winnerMail[0]!.text).toContain(`https://prizes.example.test/competitions/${id}#verify-draw`);
    }
    expect(mailTo(server.database.dataDir, entrants[3]!.email)).toEqual([]);
  });
});
