import styled from 'styled-components';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { formatPounds, penceToPounds } from '../../../contract/money';
import { useRoute } from '../../api/call';
import { useSiteName } from '../../stores/site';
import { shareLink } from '../competitions/ShareButton';
import { Button } from '../ui/Button';
import { ErrorBox } from '../ui/Form';
import { Card } from '../ui/Page';

// My Profile > Refer a friend (docs/product.md#referrals): the customer's link with a Share button
// (the device's share sheet, else copied) and what it has earned, in site credit.

const LinkRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  align-items: center;
  input {
    flex: 1 1 16rem;
    min-width: 0;
    padding: ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.sm};
    font: inherit;
  }
`;

export function ReferralSection() {
  const siteName = useSiteName();
  const referral = useRoute<typeof ACCOUNT_ROUTES.referral>(
    { method: 'GET', path: '/api/account/referral' },
    {},
  );
  const data = referral.data;
  return (
    <Card aria-labelledby="referral-title" data-testid="referral-section">
      <h2 id="referral-title">Refer a friend</h2>
      <p>
        Share your link. When someone opens an account with it, confirms their e-mail address and pays for a
        first order of £5.00 or more, you get site credit. It is never paid for your own accounts, a shared
        card or address, or while either of you is taking a break.
      </p>
      {referral.error && <ErrorBox>We couldn't load your referral link.</ErrorBox>}
      {data && (
        <>
          <LinkRow>
            <input
              readOnly
              aria-label="Your referral link"
              value={data.url}
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button
              type="button"
              $variant="secondary"
              onClick={() => void shareLink(`Join me on ${siteName}`, data.url)}
            >
              Share
            </Button>
          </LinkRow>
          <p data-testid="referral-earned">
            {data.referred === 0
              ? 'Nobody has joined with your link yet.'
              : `${data.referred} ${data.referred === 1 ? 'person has' : 'people have'} joined with your link. ` +
                `You have earned ${formatPounds(penceToPounds(data.rewardedPence))} in site credit.`}
          </p>
        </>
      )}
    </Card>
  );
}
