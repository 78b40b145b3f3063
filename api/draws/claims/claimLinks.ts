import type { Knex } from 'knex';
import {
  CLAIM_LINK_EXPIRED,
  CLAIM_LINK_INVALID,
  type ClaimChoice,
  type DeliveryAddress,
} from '../../../contract/claims';
import { ERROR_CODES } from '../../../contract/errors';
import { forbidden, HttpError } from '../../platform/errors';
import { answerClaim, type ClaimWithAccount, claimRow, withAccount } from './claims';
import { tokenMatches } from './claimTokens';

// A postal winner has no account to sign in to: their winner e-mail links /claims/:id?token=…, and
// the token alone opens that one claim (docs/draws.md#7-claiming-a-prize). A wrong, altered or
// another claim's token is 403 and shows nothing; the link lives as long as the claim window
// (410 after the deadline, claimed or not). An account's claim has no token: no link opens it.

/** The claim the link names, when its token is that claim's and the window is open. */
export async function claimByLink(
  db: Knex,
  id: number,
  token: string,
  now: number,
): Promise<ClaimWithAccount> {
  const row = await claimRow(db, id);
  if (!row || row.postalEntryId === null || !tokenMatches(row.tokenHash, token))
    throw forbidden(CLAIM_LINK_INVALID);
  if (now > Number(row.deadlineAt))
    throw new HttpError(410, ERROR_CODES.claimLinkExpired, CLAIM_LINK_EXPIRED);
  return withAccount(row);
}

/** The postal winner's answer through the link: as an account's (once, the prize or the cash). */
export async function submitClaimByLink(
  db: Knex,
  id: number,
  token: string,
  input: { address: DeliveryAddress; choice: ClaimChoice },
  now: number,
): Promise<ClaimWithAccount> {
  await answerClaim(db, await claimByLink(db, id, token, now), input, now);
  return claimByLink(db, id, token, now);
}
