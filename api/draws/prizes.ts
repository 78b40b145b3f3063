import type { Knex } from 'knex';
import type { MultiDrawComputation } from '../../contract/draw';
import { type MainPrize, mainPrizesOf, ordinal } from '../../contract/prizes';
import { type DrawRecord, PRIZE_WINNER_FIELDS, type PrizeRecord } from './presenter';

// Several prizes in the main draw (docs/draws.md "Several prizes"). The `draws` row is the 1st
// prize's winner record (as before, so single-prize draws are unchanged); each further prize has a
// `draw_prizes` row with its own winner, e-mail and delivery.

/** The winner's account, joined as `u`, on every winner record. */
export const WINNER_ACCOUNT_COLUMNS = [
  'u.firstName',
  'u.lastName',
  'u.username',
  'u.email',
  'u.ageVerifiedAt',
  'u.deletedAt',
  'u.publicNameMode',
  'u.nickname',
] as const;

/** A postal winner without an account, joined as `pe` (see joinPostalWinner). */
export const POSTAL_WINNER_COLUMNS = [
  'pe.name as postalName',
  'pe.email as postalEmail',
  'pe.address as postalAddress',
  'pe.postcode as postalPostcode',
] as const;

/**
 * The winning order's postcard, joined as `pe` when the winner has no account (a postal entry on
 * an account is that account's win): one postal entry per £0 order.
 */
export const joinPostalWinner = (q: Knex.QueryBuilder, winner: 'd' | 'p'): Knex.QueryBuilder =>
  q.leftJoin('postalEntries as pe', function () {
    this.on('pe.orderId', '=', `${winner}.winnerOrderId`).andOnNull(`${winner}.winnerUserId`);
  });

type DrawRow = Omit<DrawRecord, 'prizes'> & {
  mainPrizes: string | MainPrize[] | null;
  prizeValuePence: number | null;
};

const parsePrizes = (raw: string | MainPrize[] | null): MainPrize[] | null =>
  typeof raw === 'string' ? (JSON.parse(raw) as MainPrize[]) : raw;

/** The value a prize's age check goes by: its own cash value, for the 1st also the competition's. */
const ageCheckValue = (prize: MainPrize | undefined, position: number, competitionValue: number | null) =>
  prize?.cashValuePence ?? (position === 1 ? competitionValue : null);

/** Draw rows with their prizes, 1st first: the 1st from the row itself, the others from draw_prizes. */
export async function withPrizes(db: Knex, rows: DrawRow[]): Promise<DrawRecord[]> {
  if (!rows.length) return [];
  const further = (await joinPostalWinner(
    db('draw_prizes as p').leftJoin('users as u', 'u.id', 'p.winnerUserId'),
    'p',
  )
    .whereIn(
      'p.competitionId',
      rows.map((r) => r.competitionId),
    )
    .orderBy([{ column: 'p.competitionId' }, { column: 'p.position' }])
    .select(
      'p.competitionId',
      'p.position',
      'p.title',
      'p.winningNumber',
      'p.winnerUserId',
      'p.winnerOrderId',
      'p.winnerNotifiedAt',
      'p.prizeDeliveredAt',
      ...WINNER_ACCOUNT_COLUMNS,
      ...POSTAL_WINNER_COLUMNS,
    )) as Array<Omit<PrizeRecord, 'cashValuePence'> & { competitionId: number }>;
  return rows.map(({ mainPrizes, prizeValuePence, ...r }) => {
    const list = mainPrizesOf({ title: r.title, mainPrizes: parsePrizes(mainPrizes) });
    const competitionValue = prizeValuePence === null ? null : Number(prizeValuePence);
    const first: PrizeRecord = {
      ...(Object.fromEntries(PRIZE_WINNER_FIELDS.map((f) => [f, r[f]])) as Pick<
        DrawRecord,
        (typeof PRIZE_WINNER_FIELDS)[number]
      >),
      position: 1,
      title: list[0]!.title,
      cashValuePence: ageCheckValue(list[0], 1, competitionValue),
    };
    const others = further
      .filter((p) => Number(p.competitionId) === Number(r.competitionId))
      .map(({ competitionId: _, ...p }) => ({
        ...p,
        position: Number(p.position),
        cashValuePence: ageCheckValue(list[Number(p.position) - 1], Number(p.position), competitionValue),
      }));
    return { ...r, prizes: [first, ...others] };
  });
}

/** Inserts the winner records of the 2nd and later prizes (the 1st is the draws row). */
export async function insertFurtherPrizes(
  trx: Knex.Transaction,
  competitionId: number,
  prizes: readonly MainPrize[],
  result: MultiDrawComputation,
  sold: ReadonlyArray<{ number: number; userId: number | null; orderId: number | null }>,
): Promise<void> {
  const byNumber = new Map(sold.map((t) => [Number(t.number), t]));
  for (const p of result.prizes.slice(1)) {
    const ticket = byNumber.get(p.winningNumber)!;
    await trx('drawPrizes').insert({
      competitionId,
      position: p.position,
      title: prizes[p.position - 1]!.title,
      winningIndex: p.index,
      winningNumber: p.winningNumber,
      counter: p.counter,
      winnerUserId: ticket.userId,
      winnerOrderId: ticket.orderId,
    });
  }
}

/** How a main prize is named to its winner: '2nd prize: Smart watch' (with one prize, its title). */
export const mainPrizeName = (prizeCount: number, position: number, title: string): string =>
  prizeCount > 1 ? `${ordinal(position)} prize: ${title}` : title;

/** How a prize is named in the entrants' e-mail when there are several: '2nd prize: £500 cash'. */
export const prizeLabel = (record: DrawRecord, prize: PrizeRecord): string | undefined =>
  record.prizes.length > 1 ? mainPrizeName(record.prizes.length, prize.position, prize.title) : undefined;

/** Records that a prize's winner was e-mailed. */
export async function markPrizeNotified(db: Knex, competitionId: number, position: number, at: number) {
  if (position === 1) await db('draws').where({ competitionId }).update({ winnerNotifiedAt: at });
  else await db('drawPrizes').where({ competitionId, position }).update({ winnerNotifiedAt: at });
}

/** Sets a prize's delivery time (null: not delivered). */
export async function updatePrizeDelivered(
  trx: Knex.Transaction,
  competitionId: number,
  position: number,
  at: number | null,
) {
  if (position === 1) await trx('draws').where({ competitionId }).update({ prizeDeliveredAt: at });
  else await trx('drawPrizes').where({ competitionId, position }).update({ prizeDeliveredAt: at });
}
