import styled from 'styled-components';
import { type AdminClaimView, addressLine } from '../../../contract/claims';
import { formatDateTime, formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';

/** A claim's facts on their own (the instant-win list's cell). */
export const ClaimList = styled.dl`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr);
  gap: 2px ${({ theme }) => theme.space.sm};
  margin: ${({ theme }) => theme.space.xs} 0 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

const claimText = (c: AdminClaimView) => {
  if (c.status === 'claimed') {
    const what =
      c.choice === 'cash' && c.cashAlternative !== null
        ? `Cash alternative (${formatPounds(c.cashAlternative)})`
        : 'Prize';
    return `${what} chosen on ${formatDateTime(c.claimedAt!)}`;
  }
  if (c.status === 'expired')
    return `Not claimed: the window closed on ${formatLongDate(c.deadline)} (decide with the winner)`;
  return `Awaiting the winner (claim by ${formatLongDate(c.deadline)})`;
};

/**
 * The winner's phone, address and claim (docs/draws.md#7-claiming-a-prize): rows of a winner's facts
 * (a <dl>). As confirmed with the claim; before it, as the account holds them.
 */
export function ClaimFacts({ claim }: { claim?: AdminClaimView | null | undefined }) {
  if (!claim) return null;
  return (
    <>
      <dt>Phone</dt>
      <dd data-testid="winner-phone">
        {claim.phoneNumber ? (
          <a href={`tel:${claim.phoneNumber.replace(/[^\d+]/g, '')}`}>{claim.phoneNumber}</a>
        ) : (
          'Not given'
        )}
      </dd>
      <dt>Address</dt>
      <dd data-testid="winner-address">{claim.address ? addressLine(claim.address) : 'Not given yet'}</dd>
      <dt>Claim</dt>
      <dd data-testid="winner-claim">{claimText(claim)}</dd>
    </>
  );
}
