import { formatOrderNumber } from '../../contract/checkout';
import { iso } from '../../contract/dates';
import type { AdminWinner, PublicDraw, Winner } from '../../contract/draw';
import type { AdminPrizeWinner, PrizeWinner } from '../../contract/prizes';
import { type PublicNameFields, postcardOwnerName, publicOwnerName } from '../catalogue/presenter';

/** A draws row joined with its competition and the winner's account (for names). */
export interface DrawRecord {
  competitionId: number;
  /** The rule that made it (contract/draw.ts): 1 before the beacon, 2 with it. */
  version: number;
  seed: string;
  entriesHash: string;
  winningNumber: number;
  /** Version 2: the beacon round used (null for version 1). */
  beaconRound: number | null;
  beaconRandomness: string | null;
  winnerUserId: number | null;
  winnerOrderId: number | null;
  drawnAt: number;
  drawnBy: string;
  winnerNotifiedAt: number | null;
  prizeDeliveredAt: number | null;
  winnerTown: string | null;
  title: string;
  image: string | null;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  email: string | null;
  ageVerifiedAt: number | null;
  deletedAt: number | null;
  /** The winner's public-name choice (migration 045). */
  publicNameMode: string | null;
  nickname: string | null;
  /** A postal winner without an account: the postcard's name and contact (else null). */
  postalName: string | null;
  postalEmail: string | null;
  postalAddress: string | null;
  postalPostcode: string | null;
  /** Every main prize drawn, 1st first (the 1st is this row's winner). */
  prizes: PrizeRecord[];
}

/** What every prize's winner record has, the draws row (1st prize) and draw_prizes rows alike. */
export const PRIZE_WINNER_FIELDS = [
  'winningNumber',
  'winnerUserId',
  'winnerOrderId',
  'winnerNotifiedAt',
  'prizeDeliveredAt',
  'firstName',
  'lastName',
  'username',
  'email',
  'ageVerifiedAt',
  'deletedAt',
  'publicNameMode',
  'nickname',
  'postalName',
  'postalEmail',
  'postalAddress',
  'postalPostcode',
] as const;

/** One prize's winner record (docs/draws.md "Several prizes"), with the winner's account. */
export type PrizeRecord = Pick<DrawRecord, (typeof PRIZE_WINNER_FIELDS)[number]> & {
  position: number;
  title: string;
  /** What the age check goes by (null: not stated). */
  cashValuePence: number | null;
};

/** How a winner whose account was deleted is shown: the record stays, the person does not. */
export const ANONYMOUS_WINNER = 'Anonymous winner';

/** As the entries list names them: a postal winner without an account by the postcard's name. */
export const winnerNameOf = (r: PublicNameFields & Pick<DrawRecord, 'postalName'>) =>
  r.deletedAt ? ANONYMOUS_WINNER : r.postalName ? postcardOwnerName(r.postalName) : publicOwnerName(r);

/** The postal winner's postcard, for the admin (null for a winner with an account). */
const postalEntrantOf = (p: PrizeRecord) =>
  p.postalName === null || p.postalName === undefined
    ? null
    : {
        name: p.postalName,
        email: p.postalEmail ?? '',
        address: p.postalAddress ?? '',
        postcode: p.postalPostcode ?? '',
      };

export const presentPublicDraw = (r: DrawRecord): PublicDraw => ({
  version: Number(r.version) === 1 ? 1 : 2,
  seed: r.seed,
  entriesHash: r.entriesHash,
  winningNumber: Number(r.winningNumber),
  winnerName: winnerNameOf(r),
  // A deleted account's town goes with its name.
  winnerTown: r.deletedAt ? null : r.winnerTown,
  drawnAt: iso(r.drawnAt),
  prizes: r.prizes.map(presentPrizeWinner),
});

export const presentPrizeWinner = (p: PrizeRecord): PrizeWinner => ({
  position: p.position,
  title: p.title,
  winningNumber: Number(p.winningNumber),
  winnerName: winnerNameOf(p),
});

const isoOrNull = (at: number | null | undefined) => (at === null || at === undefined ? null : iso(at));

export const presentAdminPrizeWinner = (p: PrizeRecord): AdminPrizeWinner => ({
  ...presentPrizeWinner(p),
  cashValuePence: p.cashValuePence,
  winner: {
    userId: p.winnerUserId === null ? null : Number(p.winnerUserId),
    username: p.username,
    email: p.email,
    firstName: p.firstName,
    lastName: p.lastName,
    ageVerifiedAt: isoOrNull(p.ageVerifiedAt),
    postalEntry: postalEntrantOf(p),
  },
  orderId: p.winnerOrderId === null ? null : Number(p.winnerOrderId),
  orderNumber: p.winnerOrderId === null ? null : formatOrderNumber(Number(p.winnerOrderId)),
  prizeDeliveredAt: isoOrNull(p.prizeDeliveredAt),
  winnerNotifiedAt: isoOrNull(p.winnerNotifiedAt),
});

export const presentWinner = (r: DrawRecord): Winner => ({
  competitionId: Number(r.competitionId),
  title: r.title,
  image: r.image,
  winnerName: winnerNameOf(r),
  winningNumber: Number(r.winningNumber),
  drawnAt: iso(r.drawnAt),
  url: `/competitions/${r.competitionId}`,
  prizes: r.prizes.map(presentPrizeWinner),
});

export const presentAdminWinner = (r: DrawRecord): AdminWinner => {
  // The 1st prize's winner, contact and delivery are the draw row's own.
  const { winner, orderId, orderNumber, prizeDeliveredAt, winnerNotifiedAt } = presentAdminPrizeWinner({
    ...r,
    position: 1,
    cashValuePence: null,
  });
  return {
    ...presentWinner(r),
    winner,
    orderId,
    orderNumber,
    drawnBy: r.drawnBy,
    prizeDeliveredAt,
    winnerNotifiedAt,
    winnerTown: r.winnerTown,
    prizes: r.prizes.map(presentAdminPrizeWinner),
  };
};
