import type { Knex } from 'knex';
import { newDrawSeed } from '../../api/catalogue/drawSeed';
import { openMainClaims } from '../../api/draws/claims/claims';
import { oweDrawEmails } from '../../api/draws/drawEmails';
import { loadDrawRecord } from '../../api/draws/drawRecords';
import { insertFurtherPrizes } from '../../api/draws/prizes';
import { computeDrawPrizes } from '../../contract/draw';
import { addressKeyOf, emailKeyOf } from '../../contract/postal';
import { SEED_CARDS } from './demoSales';
import { pickDistinct, seededRandom } from './random';

// A drawn competition whose 3rd prize went to a free postal entry (docs/product.md#free-postal-entry),
// so the demo shows a postal winner on /winners, in the admin's winner panel (with the claim their
// e-mailed link opens), orders and CSV.
// The draw is real and verifiable: computed from the competition's seed and its entries with the
// rule made before the beacon (version 1, no beacon round: the demo has no past round to use).
// Which sold number is the postcard's is chosen after: entries are numbers, not owners, so that
// choice does not change the draw. The winners' e-mails are owed, and the outbox sends them.

const DAY = 86_400_000;
export const POSTAL_WINNER_TITLE = 'Cornish Hamper Trio';
const PRIZES = [
  {
    title: 'Luxury Cornish hamper',
    description: null,
    cashValuePence: 15_000,
    cashAlternativePence: 12_000,
    image: null,
  },
  { title: '£50 cash', description: null, cashValuePence: 5_000, cashAlternativePence: null, image: null },
  {
    title: 'Cream tea for two',
    description: null,
    cashValuePence: 3_000,
    cashAlternativePence: 2_500,
    image: null,
  },
];
const PRICE = 150;
const TOTAL = 40;
const SOLD = 14;
const POSTCARD = {
  name: 'Pat Penhaligon',
  email: 'pat.penhaligon@example.co.uk',
  address: '3 Chapel Street\nPenzance',
  postcode: 'TR18 4AQ',
  answer: '365',
};

interface Sale {
  number: number;
  userId: number | null;
  orderId: number;
}

async function insertOrder(
  trx: Knex.Transaction,
  competitionId: number,
  sale: { number: number; userId: number | null; pricePence: number; at: number; postal: boolean },
) {
  const [orderId] = await trx('orders').insert({
    userId: sale.userId,
    paymentProvider: sale.postal ? 'postal' : 'seed',
    // A postcard pays nothing; a seeded sale names its debit card like every other.
    ...(sale.postal ? {} : SEED_CARDS[sale.number % SEED_CARDS.length]),
    subtotalPence: sale.pricePence,
    creditAppliedPence: 0,
    totalPence: sale.pricePence,
    currency: 'gbp',
    status: 'completed',
    paidAt: sale.at,
    notice: sale.postal
      ? `Free postal entry received ${new Date(sale.at).toISOString().slice(0, 10)}.`
      : null,
    createdAt: sale.at,
    updatedAt: sale.at,
  });
  await trx('orderItems').insert({
    orderId,
    competitionId,
    title: POSTAL_WINNER_TITLE,
    ticketPricePence: sale.pricePence,
    quantity: 1,
    paidPence: sale.pricePence,
    selectedNumbers: JSON.stringify([sale.number]),
    createdAt: sale.at,
  });
  if (sale.userId)
    await trx('userEntries').insert({
      userId: sale.userId,
      competitionId,
      orderId,
      ticketNumbers: JSON.stringify([sale.number]),
      purchasedAt: sale.at,
    });
  await trx('tickets').insert({
    competitionId,
    number: sale.number,
    status: 'sold',
    userId: sale.userId,
    orderId,
    isClaimed: true,
    createdAt: sale.at,
    updatedAt: sale.at,
  });
  return Number(orderId);
}

/** The sales: one ticket per order over the buyers, the 3rd prize's number by post. */
async function insertSales(
  trx: Knex.Transaction,
  competitionId: number,
  numbers: number[],
  postalNumber: number,
  ids: { buyers: number[]; adminId: number },
  openedAt: number,
): Promise<Sale[]> {
  const sales: Sale[] = [];
  for (const [i, number] of numbers.entries()) {
    const at = openedAt + (i + 1) * 3_600_000;
    const postal = number === postalNumber;
    const userId = postal ? null : ids.buyers[i % ids.buyers.length]!;
    const orderId = await insertOrder(trx, competitionId, {
      number,
      userId,
      pricePence: postal ? 0 : PRICE,
      at,
      postal,
    });
    if (postal)
      await trx('postalEntries').insert({
        competitionId,
        orderId,
        number,
        userId: null,
        ...POSTCARD,
        emailKey: emailKeyOf(POSTCARD.email),
        addressKey: addressKeyOf(POSTCARD.address, POSTCARD.postcode),
        receivedAt: at,
        recordedByUserId: ids.adminId,
        createdAt: at,
      });
    sales.push({ number, userId, orderId });
  }
  return sales;
}

/** Seeds the drawn competition once (by title); returns the tickets it sold. */
export async function seedPostalWinnerDraw(
  trx: Knex.Transaction,
  ids: { buyers: number[]; adminId: number; adminUsername: string },
  now: number,
): Promise<number> {
  if (await trx('competitions').where({ title: POSTAL_WINNER_TITLE }).first('id')) return 0;
  const openedAt = now - 20 * DAY;
  const endDate = now - 2 * DAY;
  const seed = newDrawSeed();
  const [rawId] = await trx('competitions').insert({
    title: POSTAL_WINNER_TITLE,
    description: 'A hamper, cash and a cream tea: three prizes, drawn. The 3rd went to a postcard.',
    image: '/images/competitions/home-2.svg',
    ticketPricePence: PRICE,
    totalTickets: TOTAL,
    ticketsSold: 0,
    ...seed,
    endDate,
    autoWin: false,
    status: 'ended',
    features: JSON.stringify(['Three prizes', 'Free entry by post']),
    details: JSON.stringify({ category: 'Home' }),
    mainPrizes: JSON.stringify(PRIZES),
    createdAt: openedAt,
    updatedAt: openedAt,
  });
  const competitionId = Number(rawId);
  const numbers = pickDistinct(seededRandom(POSTAL_WINNER_TITLE), TOTAL, SOLD).sort((a, b) => a - b);
  const multi = await computeDrawPrizes(seed.drawSeed, numbers, PRIZES.length);
  const postalNumber = multi.prizes[2]!.winningNumber;
  const sales = await insertSales(trx, competitionId, numbers, postalNumber, ids, openedAt);

  const first = multi.prizes[0]!;
  const winner = sales.find((s) => s.number === first.winningNumber)!;
  const drawnAt = endDate + 60_000;
  await trx('draws').insert({
    competitionId,
    version: 1,
    seed: seed.drawSeed,
    commitment: seed.drawCommitment,
    entriesHash: multi.entriesHash,
    entryCount: multi.entryCount,
    entries: JSON.stringify(numbers),
    winningIndex: first.index,
    winningNumber: first.winningNumber,
    winnerUserId: winner.userId,
    winnerOrderId: winner.orderId,
    drawnAt,
    drawnByUserId: ids.adminId,
    drawnBy: ids.adminUsername,
  });
  await insertFurtherPrizes(trx, competitionId, PRIZES, multi, sales);
  await trx('competitions')
    .where({ id: competitionId })
    .update({ ticketsSold: sales.length, drawnAt, updatedAt: drawnAt });
  await trx('competitionVersions').insert({ competitionId, version: sales.length + 1 });
  // Each winner's claim, as the draw opens them (the postcard's with its link), then the winners'
  // e-mails (the postcard's address among them, with that link) and the entrants' results.
  const record = (await loadDrawRecord(trx, competitionId))!;
  const claims = await openMainClaims(trx, record, drawnAt);
  await oweDrawEmails(trx, record, now, claims);
  return sales.length;
}
