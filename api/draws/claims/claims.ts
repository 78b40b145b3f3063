import type { Knex } from 'knex';
import {
  type AdminClaimView,
  CASH_ONLY,
  CLAIM_ALREADY_MADE,
  CLAIM_CLOSED,
  CLAIM_NOT_FOUND,
  CLAIM_WINDOW_MS,
  type ClaimChoice,
  type ClaimStatus,
  type ClaimView,
  type DeliveryAddress,
  NO_CASH_ALTERNATIVE,
} from '../../../contract/claims';
import { iso } from '../../../contract/dates';
import { penceToPounds } from '../../../contract/money';
import { prizesOnShow } from '../../../contract/prizes';
import { Competition } from '../../../db/models';
import { badRequest, conflict, notFound } from '../../platform/errors';
import type { DrawRecord } from '../presenter';
import { mainPrizeName } from '../prizes';
import { newClaimLink } from './claimTokens';

// Winners claim their prize (docs/draws.md#7-claiming-a-prize). A claim is opened in the win's own
// transaction (the draw, or the sale that won an instant prize), so the winner e-mail can link it;
// the winner confirms the address and takes the prize or its cash alternative before the deadline.
// Past the deadline nothing is chosen for them: the claim shows as expired and the operator decides.

export interface ClaimRow {
  id: number;
  prizeRef: string;
  kind: 'main' | 'instant';
  competitionId: number;
  position: number | null;
  instantWinId: number | null;
  /** The winner's account; null for a postal winner without one (then postalEntryId). */
  userId: number | null;
  /** The postcard that won (a postal winner without an account), opened with the e-mailed link. */
  postalEntryId: number | null;
  /** SHA-256 (hex) of the postal winner's link token; the token itself is never stored. */
  tokenHash: string | null;
  prizeLabel: string;
  cashAlternativePence: number | null;
  status: 'awaiting' | 'claimed';
  choice: ClaimChoice | null;
  addressLine1: string | null;
  addressLine2: string | null;
  addressTown: string | null;
  addressPostcode: string | null;
  phoneNumber: string | null;
  claimedAt: number | null;
  deadlineAt: number;
  createdAt: number;
}

/** What the winner e-mail needs of a claim: its page, its deadline and, for a postal winner, the link's token. */
export interface ClaimRef {
  id: number;
  deadlineAt: number;
  /** Only in the draw's transaction, for the e-mail: the database keeps its hash. */
  token?: string;
}

/** What a claim is opened with; the answer's columns stay empty until the winner claims. */
type NewClaim = Pick<
  ClaimRow,
  | 'prizeRef'
  | 'kind'
  | 'competitionId'
  | 'position'
  | 'instantWinId'
  | 'userId'
  | 'postalEntryId'
  | 'tokenHash'
  | 'prizeLabel'
  | 'cashAlternativePence'
  | 'deadlineAt'
  | 'createdAt'
>;

async function openClaim(trx: Knex, row: NewClaim, token?: string): Promise<ClaimRef> {
  const [id] = await trx('prizeClaims').insert({ ...row, status: 'awaiting' });
  return { id: Number(id), deadlineAt: row.deadlineAt, ...(token ? { token } : {}) };
}

/** Who won a prize: the account, else the postcard of the winning £0 order (null: nobody to ask). */
async function winnersOf(trx: Knex, prizes: DrawRecord['prizes']) {
  const orderIds = prizes
    .filter((p) => !p.winnerUserId && p.winnerOrderId)
    .map((p) => Number(p.winnerOrderId));
  const postcards = orderIds.length
    ? ((await trx('postalEntries')
        .whereIn('orderId', orderIds)
        .whereNull('userId')
        .select('id', 'orderId')) as Array<{
        id: number;
        orderId: number;
      }>)
    : [];
  const byOrder = new Map(postcards.map((p) => [Number(p.orderId), Number(p.id)]));
  return (prize: DrawRecord['prizes'][number]) => {
    if (prize.deletedAt) return null;
    if (prize.winnerUserId) return { userId: Number(prize.winnerUserId), postalEntryId: null };
    const postalEntryId = byOrder.get(Number(prize.winnerOrderId));
    return postalEntryId === undefined ? null : { userId: null, postalEntryId };
  };
}

/**
 * In the draw's transaction: a claim for each main prize won by an account or by a postcard
 * without one (opened with the link its winner e-mail carries). Each offers its prize's cash
 * alternative, where it has one.
 */
export async function openMainClaims(
  trx: Knex,
  record: DrawRecord,
  now: number,
): Promise<Map<number, ClaimRef>> {
  const claims = new Map<number, ClaimRef>();
  const c = await Competition.query(trx).findById(record.competitionId);
  // Each prize's cash alternative as the page shows it (the 1st falls back to the competition's).
  const shown = c ? prizesOnShow(c) : [];
  const winnerOf = await winnersOf(trx, record.prizes);
  for (const prize of record.prizes) {
    const winner = winnerOf(prize);
    if (!winner) continue;
    const cash = shown[prize.position - 1]?.cashAlternativePence ?? null;
    const link = winner.postalEntryId === null ? undefined : newClaimLink();
    claims.set(
      prize.position,
      await openClaim(
        trx,
        {
          prizeRef: `main:${record.competitionId}:${prize.position}`,
          kind: 'main',
          competitionId: record.competitionId,
          position: prize.position,
          instantWinId: null,
          ...winner,
          tokenHash: link?.hash ?? null,
          prizeLabel: mainPrizeName(record.prizes.length, prize.position, prize.title),
          cashAlternativePence: cash === null ? null : Number(cash),
          deadlineAt: now + CLAIM_WINDOW_MS,
          createdAt: now,
        },
        link?.token,
      ),
    );
  }
  return claims;
}

/** Who claims an instant win: the account, or the postcard without one (opened with a link). */
export type InstantWinner = { userId: number } | { postalEntryId: number };

/**
 * In the sale's transaction: a claim for an instant win of kind 'prize', or of credit won by a
 * postcard without an account (paid as cash, the only choice). A prize won again after a
 * cancellation replaces the old claim. A postcard's claim carries its link's token, for the e-mail.
 */
export async function openInstantClaim(
  trx: Knex,
  win: {
    id: number;
    competitionId: number;
    title: string;
    kind: 'credit' | 'prize';
    amountPence: number | null;
  },
  winner: InstantWinner,
  now: number,
): Promise<ClaimRef> {
  const prizeRef = `instant:${win.id}`;
  await trx('prizeClaims').where({ prizeRef }).delete();
  const link = 'postalEntryId' in winner ? newClaimLink() : undefined;
  return openClaim(
    trx,
    {
      prizeRef,
      kind: 'instant',
      competitionId: win.competitionId,
      position: null,
      instantWinId: win.id,
      userId: 'userId' in winner ? winner.userId : null,
      postalEntryId: 'postalEntryId' in winner ? winner.postalEntryId : null,
      tokenHash: link?.hash ?? null,
      prizeLabel: `Instant win: ${win.title}`,
      cashAlternativePence: win.kind === 'credit' ? win.amountPence : null,
      deadlineAt: now + CLAIM_WINDOW_MS,
      createdAt: now,
    },
    link?.token,
  );
}

/** The claim of a returned instant win goes with it (the cancelled order's customer no longer won). */
export async function closeInstantClaim(trx: Knex, instantWinId: number): Promise<void> {
  await trx('prizeClaims')
    .where({ prizeRef: `instant:${instantWinId}` })
    .delete();
}

const statusOf = (row: ClaimRow, now: number): ClaimStatus =>
  row.status === 'claimed' ? 'claimed' : now > Number(row.deadlineAt) ? 'expired' : 'awaiting';

type Address = Pick<ClaimRow, 'addressLine1' | 'addressLine2' | 'addressTown' | 'addressPostcode'>;

const addressOf = (a: Address): DeliveryAddress | null =>
  a.addressLine1
    ? {
        line1: a.addressLine1,
        line2: a.addressLine2 ?? '',
        town: a.addressTown ?? '',
        postcode: a.addressPostcode ?? '',
      }
    : null;

const cashOf = (row: ClaimRow) =>
  row.cashAlternativePence === null ? null : penceToPounds(Number(row.cashAlternativePence));

type ClaimWithAccount = ClaimRow & {
  competitionTitle: string;
  /** Site credit won without an account: paid in cash, the only choice. */
  cashOnly: boolean;
  account: Address & { phoneNumber: string | null };
};

export const claimQuery = (db: Knex) =>
  db('prizeClaims as pc')
    .join('competitions as c', 'c.id', 'pc.competitionId')
    .leftJoin('users as u', 'u.id', 'pc.userId')
    .leftJoin('postalEntries as pe', 'pe.id', 'pc.postalEntryId')
    .leftJoin('instantWins as iw', 'iw.id', 'pc.instantWinId')
    .select(
      'pc.*',
      'iw.kind as instantKind',
      'c.title as competitionTitle',
      'pe.address as postcardAddress',
      'pe.postcode as postcardPostcode',
      'u.phoneNumber as accountPhone',
      'u.addressLine1 as accountLine1',
      'u.addressLine2 as accountLine2',
      'u.addressTown as accountTown',
      'u.addressPostcode as accountPostcode',
    );

export type Joined = ClaimRow & {
  competitionTitle: string;
  instantKind: 'credit' | 'prize' | null;
  accountPhone: string | null;
  accountLine1: string | null;
  accountLine2: string | null;
  accountTown: string | null;
  accountPostcode: string | null;
  postcardAddress: string | null;
  postcardPostcode: string | null;
};

/**
 * A postcard's address as a claim's starting point: its first line, any middle lines, and its last
 * as the town ('3 Chapel Street\nPenzance'), with the postcard's postcode. The winner corrects it.
 */
const postcardAddress = (address: string, postcode: string): Address => {
  const lines = address
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter(Boolean);
  const [line1 = '', ...rest] = lines;
  const town = rest.length ? rest.pop()! : '';
  return {
    addressLine1: line1,
    addressLine2: rest.join(', ') || null,
    addressTown: town || null,
    addressPostcode: postcode,
  };
};

const withAccount = (r: Joined): ClaimWithAccount => ({
  ...r,
  id: Number(r.id),
  competitionId: Number(r.competitionId),
  position: r.position === null ? null : Number(r.position),
  instantWinId: r.instantWinId === null ? null : Number(r.instantWinId),
  userId: r.userId === null ? null : Number(r.userId),
  postalEntryId: r.postalEntryId === null ? null : Number(r.postalEntryId),
  cashOnly: r.kind === 'instant' && r.instantKind === 'credit',
  // A postal winner starts from the postcard (no phone); an account from My Profile.
  account:
    r.postalEntryId !== null && r.postcardAddress !== null
      ? { phoneNumber: null, ...postcardAddress(r.postcardAddress, r.postcardPostcode ?? '') }
      : {
          phoneNumber: r.accountPhone || null,
          addressLine1: r.accountLine1,
          addressLine2: r.accountLine2,
          addressTown: r.accountTown,
          addressPostcode: r.accountPostcode,
        },
});

/** The winner's view: once claimed, what they confirmed; until then, what My Profile (or the postcard) holds. */
export function presentClaim(r: ClaimWithAccount, now: number): ClaimView {
  const source = r.status === 'claimed' ? r : r.account;
  return {
    id: r.id,
    kind: r.kind,
    competitionId: r.competitionId,
    instantWinId: r.instantWinId,
    competitionTitle: r.competitionTitle,
    prize: r.prizeLabel,
    cashAlternative: cashOf(r),
    cashOnly: r.cashOnly,
    status: statusOf(r, now),
    choice: r.choice,
    address: addressOf(source),
    phoneNumber: (r.status === 'claimed' ? r.phoneNumber : r.account.phoneNumber) || null,
    claimedAt: r.claimedAt === null ? null : iso(r.claimedAt),
    deadline: iso(r.deadlineAt),
  };
}

export const presentAdminClaim = (r: ClaimWithAccount, now: number): AdminClaimView => {
  const { id, status, choice, claimedAt, deadline, cashAlternative, phoneNumber, address } = presentClaim(
    r,
    now,
  );
  return { id, status, choice, claimedAt, deadline, cashAlternative, phoneNumber, address };
};

/** The customer's claims, newest first. */
export async function listMyClaims(db: Knex, userId: number): Promise<ClaimWithAccount[]> {
  const rows = (await claimQuery(db).where('pc.userId', userId).orderBy('pc.id', 'desc')) as Joined[];
  return rows.map(withAccount);
}

/** One of the customer's claims; another customer's is 404, as if it did not exist. */
export async function myClaim(db: Knex, userId: number, id: number): Promise<ClaimWithAccount> {
  const row = await claimRow(db, id);
  if (!row || row.userId === null || Number(row.userId) !== userId) throw notFound(CLAIM_NOT_FOUND);
  return withAccount(row);
}

/** One claim as stored, with its competition and winner (undefined: none). */
export const claimRow = async (db: Knex, id: number) =>
  (await claimQuery(db).where('pc.id', id).first()) as Joined | undefined;

export { withAccount };

/**
 * The winner's answer: the address (kept as confirmed, with the account's phone number) and the
 * prize or the cash alternative (only where offered). Once only, before the deadline: 409 after.
 */
export async function submitClaim(
  db: Knex,
  userId: number,
  id: number,
  input: { address: DeliveryAddress; choice: ClaimChoice },
  now = Date.now(),
): Promise<ClaimWithAccount> {
  await answerClaim(db, await myClaim(db, userId, id), input, now);
  return myClaim(db, userId, id);
}

/** Records the winner's answer to their claim (whoever asked has been checked). */
export async function answerClaim(
  db: Knex,
  claim: ClaimWithAccount,
  input: { address: DeliveryAddress; choice: ClaimChoice },
  now: number,
): Promise<void> {
  const { id } = claim;
  if (claim.status === 'claimed') throw conflict(CLAIM_ALREADY_MADE);
  if (now > Number(claim.deadlineAt)) throw conflict(CLAIM_CLOSED);
  if (input.choice === 'cash' && claim.cashAlternativePence === null) throw badRequest(NO_CASH_ALTERNATIVE);
  if (input.choice === 'prize' && claim.cashOnly) throw badRequest(CASH_ONLY);
  const { address: a } = input;
  // Conditional on still awaiting: of two answers at once, one wins and the other is told.
  const updated = await db('prizeClaims')
    .where({ id, status: 'awaiting' })
    .where('deadlineAt', '>=', now)
    .update({
      status: 'claimed',
      choice: input.choice,
      addressLine1: a.line1,
      addressLine2: a.line2 || null,
      addressTown: a.town,
      addressPostcode: a.postcode,
      phoneNumber: claim.account.phoneNumber,
      claimedAt: now,
    });
  if (!updated) throw conflict(CLAIM_ALREADY_MADE);
}

export type { ClaimWithAccount };
