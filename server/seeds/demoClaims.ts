import type { Knex } from 'knex';
import { DEMO_COMPETITIONS } from './demoCompetitions';
import { insertSale } from './demoSales';

// A claimed prize for the demo (docs/draws.md#7-claiming-a-prize): an entrant who won the instant
// wins competition's physical prize and confirmed their address and the prize.

const ADDRESS = {
  addressLine1: '12 Lemon Street',
  addressLine2: null,
  addressTown: 'Truro',
  addressPostcode: 'TR1 2LS',
};

/** Idempotent: nothing when a claim was already made; else the entrant wins one and claims it. */
export async function seedClaimedPrize(trx: Knex.Transaction, userId: number, now: number): Promise<void> {
  if (await trx('prizeClaims').where({ status: 'claimed' }).first('id')) return;
  const c = DEMO_COMPETITIONS.find((d) => d.instantWins?.some((w) => w.kind === 'prize'));
  const competition = c && (await trx('competitions').where({ title: c.title }).first('id'));
  if (!c || !competition) return;
  const competitionId = Number(competition.id);
  let claim = await trx('prizeClaims').where({ kind: 'instant', competitionId }).orderBy('id').first('id');
  if (!claim) {
    // No seeded sale won the prize: the entrant buys one of its numbers, as a real sale would.
    const prize = await trx('instantWins')
      .where({ competitionId, kind: 'prize' })
      .whereNull('wonAt')
      .whereNull('retiredAt')
      .orderBy('number')
      .first('number');
    if (!prize || (await trx('tickets').where({ competitionId, number: prize.number }).first('id'))) return;
    const paidAt = now - 3 * 24 * 60 * 60 * 1000;
    const tickets = await insertSale(trx, {
      competitionId,
      c,
      userId,
      numbers: [Number(prize.number)],
      paidAt,
    });
    await trx('tickets').insert(tickets);
    await trx('competitions').where({ id: competitionId }).increment('ticketsSold', 1);
    await trx('competitionVersions').where({ competitionId }).increment('version', 1);
    claim = await trx('prizeClaims').where({ kind: 'instant', competitionId }).orderBy('id').first('id');
  }
  if (!claim) return;
  const row = await trx('prizeClaims').where({ id: claim.id }).first('userId');
  // The winner keeps the same address in My Profile.
  await trx('users').where({ id: row.userId }).update(ADDRESS);
  const winner = await trx('users').where({ id: row.userId }).first('phoneNumber');
  await trx('prizeClaims')
    .where({ id: claim.id })
    .update({
      ...ADDRESS,
      status: 'claimed',
      choice: 'prize',
      phoneNumber: winner?.phoneNumber ?? null,
      claimedAt: now - 2 * 24 * 60 * 60 * 1000,
    });
}
