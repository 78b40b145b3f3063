import type { Knex } from 'knex';
import type { AdminWinner } from '../../../contract/draw';
import type { AdminInstantWin } from '../../../contract/instantWins';
import { type ClaimWithAccount, claimQuery, type Joined, presentAdminClaim, withAccount } from './claims';

// The claims as the admin's winner panel and instant-win list show them, beside each prize.

/** The admin winner panel's claims of these competitions' main prizes, by 'competitionId:position'. */
export async function mainClaimsOf(
  db: Knex,
  competitionIds: readonly number[],
): Promise<Map<string, ClaimWithAccount>> {
  if (!competitionIds.length) return new Map();
  const rows = (await claimQuery(db)
    .where('pc.kind', 'main')
    .whereIn('pc.competitionId', [...competitionIds])) as Joined[];
  return new Map(rows.map(withAccount).map((r) => [`${r.competitionId}:${r.position}`, r]));
}

/** The claims of these instant wins, by instant win id (the admin's instant-win list). */
async function instantClaimsOf(
  db: Knex,
  instantWinIds: readonly number[],
): Promise<Map<number, ClaimWithAccount>> {
  if (!instantWinIds.length) return new Map();
  const rows = (await claimQuery(db)
    .where('pc.kind', 'instant')
    .whereIn('pc.instantWinId', [...instantWinIds])) as Joined[];
  return new Map(rows.map(withAccount).map((r) => [Number(r.instantWinId), r]));
}

/** The admin winner panel's winners with each prize's claim (null: none, e.g. a deleted account's). */
export async function withClaims(db: Knex, winners: AdminWinner[], now = Date.now()): Promise<AdminWinner[]> {
  const claims = await mainClaimsOf(
    db,
    winners.map((w) => w.competitionId),
  );
  const claimOf = (competitionId: number, position: number) => {
    const c = claims.get(`${competitionId}:${position}`);
    return c ? presentAdminClaim(c, now) : null;
  };
  return winners.map((w) => ({
    ...w,
    claim: claimOf(w.competitionId, 1),
    prizes: w.prizes?.map((p) => ({ ...p, claim: claimOf(w.competitionId, p.position) })),
  }));
}

/** The admin's instant-win list with each won prize's claim. */
export async function withInstantClaims(
  db: Knex,
  wins: AdminInstantWin[],
  now = Date.now(),
): Promise<AdminInstantWin[]> {
  const claims = await instantClaimsOf(
    db,
    wins.filter((w) => w.won).map((w) => w.id),
  );
  return wins.map((w) => {
    const c = claims.get(w.id);
    return c ? { ...w, claim: presentAdminClaim(c, now) } : w;
  });
}
