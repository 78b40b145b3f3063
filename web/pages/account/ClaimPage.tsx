import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { Link, useParams, useSearch } from 'wouter';
import type { CLAIM_ROUTES } from '../../../contract/apiClaims';
import {
  addressLine,
  CLAIM_CLOSED_NEXT,
  type ClaimChoice,
  type ClaimSubmit,
  type ClaimView,
  type DeliveryAddress,
  DeliveryAddressSchema,
} from '../../../contract/claims';
import { formatDateTime, formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { AddressFields, EMPTY_ADDRESS } from '../../components/account/AddressFields';
import { LoadedRecord, SignedInRecord } from '../../components/account/SignedInRecord';
import { Button } from '../../components/ui/Button';
import { ErrorBox, fieldErrors } from '../../components/ui/Form';
import { Card, PageContainer, PageTitle } from '../../components/ui/Page';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';

// A winner's claim (docs/draws.md#7-claiming-a-prize): confirm the delivery address and take the
// prize or, where offered, its cash alternative, before the deadline (the Terms' 14 days). A signed-in
// winner opens their own; a postal winner, who has no account, opens theirs with the e-mailed link
// (/claims/:id?token=…), without signing in.

const Wrap = styled(Card)`
  max-width: 640px;
  margin: 0 auto;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.lg}; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; }
  fieldset { border: 1px solid ${({ theme }) => theme.colors.border}; border-radius: 8px; padding: ${({ theme }) => theme.space.md}; display: grid; gap: ${({ theme }) => theme.space.sm}; }
  label.choice { display: flex; gap: ${({ theme }) => theme.space.sm}; align-items: center; min-height: 44px; }
`;

const choiceText = (c: ClaimView) =>
  c.choice === 'cash' && c.cashAlternative !== null
    ? `the cash alternative (${formatPounds(c.cashAlternative)})`
    : 'the prize';

/** Sends the answer: as the signed-in winner, or with the link's token. */
type Send = (answer: ClaimSubmit) => Promise<ClaimView>;

interface ClaimProps {
  claim: ClaimView;
  onClaimed: (c: ClaimView) => void;
  send: Send;
  /** Opened with a postal winner's link: no account, so no My Profile. */
  byLink: boolean;
}

/** How the winner is reached about delivery: the account's phone, or (postal) their e-mail. */
function DeliveryContact({ claim, byLink }: Pick<ClaimProps, 'claim' | 'byLink'>) {
  if (byLink) return <p>We will e-mail you, at the address you entered with, to agree a delivery date.</p>;
  return (
    <p>
      We will call you on {claim.phoneNumber ?? 'the phone number in My Profile'} to agree a delivery date.{' '}
      <Link href="/profile">Change it in My Profile</Link>.
    </p>
  );
}

/** The answer form: the address (from My Profile or the postcard to start with), then the prize or the cash. */
function ClaimForm({ claim, onClaimed, send, byLink }: ClaimProps) {
  const [address, setAddress] = useState<DeliveryAddress>(claim.address ?? EMPTY_ADDRESS);
  const [choice, setChoice] = useState<ClaimChoice>(claim.cashOnly ? 'cash' : 'prize');
  const [errors, setErrors] = useState<Partial<Record<keyof DeliveryAddress, string>>>({});
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(DeliveryAddressSchema, address);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.issues) as Partial<Record<keyof DeliveryAddress, string>>);
      return;
    }
    setErrors({});
    setError(undefined);
    setSaving(true);
    try {
      const claimed = await send({ address: parsed.output, choice });
      toast({ title: 'Prize claimed', variant: 'success' });
      onClaimed(claimed);
    } catch (err) {
      setError(messageOf(err, 'Your claim could not be sent. Please try again.'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Claim your prize">
      <h2>1. Confirm your delivery address</h2>
      <AddressFields idPrefix="claim-address" value={address} errors={errors} onChange={setAddress} />
      <DeliveryContact claim={claim} byLink={byLink} />
      <h2>2. Choose how to take it</h2>
      {claim.cashOnly && claim.cashAlternative !== null ? (
        <p data-testid="cash-only">
          Site credit needs an account, and you entered by post, so this prize is paid to you as{' '}
          {formatPounds(claim.cashAlternative)} in cash, by bank transfer.
        </p>
      ) : claim.cashAlternative === null ? (
        <p data-testid="no-cash-alternative">
          This prize has no cash alternative: it is delivered as described.
        </p>
      ) : (
        <fieldset>
          <legend>Prize or cash</legend>
          <label className="choice">
            <input
              type="radio"
              name="choice"
              checked={choice === 'prize'}
              onChange={() => setChoice('prize')}
            />
            The prize: {claim.prize}
          </label>
          <label className="choice">
            <input
              type="radio"
              name="choice"
              checked={choice === 'cash'}
              onChange={() => setChoice('cash')}
            />
            The cash alternative: {formatPounds(claim.cashAlternative)}, by bank transfer
          </label>
        </fieldset>
      )}
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <p style={{ marginTop: 12 }}>
        <Button type="submit" disabled={saving}>
          {saving ? 'Sending...' : 'Claim prize'}
        </Button>
      </p>
    </form>
  );
}

function ClaimDetails(props: ClaimProps) {
  const { claim } = props;
  return (
    <Wrap aria-labelledby="claim-title">
      <PageTitle id="claim-title">Claim your prize</PageTitle>
      <p>
        You won <strong data-testid="claim-prize">{claim.prize}</strong> in{' '}
        <Link href={`/competitions/${claim.competitionId}`}>{claim.competitionTitle}</Link>.
      </p>
      {claim.status === 'awaiting' && (
        <>
          <p data-testid="claim-deadline">
            Claim by <strong>{formatDateTime(claim.deadline)}</strong> (UK time).
          </p>
          <ClaimForm {...props} />
        </>
      )}
      {claim.status === 'claimed' && (
        <p role="status" data-testid="claim-done">
          Claimed on {formatLongDate(claim.claimedAt!)}: you chose {choiceText(claim)}.
          {claim.address ? ` We deliver to ${addressLine(claim.address)}.` : ''} We will{' '}
          {props.byLink ? 'e-mail' : 'call'} you to agree the date.
        </p>
      )}
      {claim.status === 'expired' && (
        <p role="status" data-testid="claim-closed">
          The claim window closed on {formatLongDate(claim.deadline)}. {CLAIM_CLOSED_NEXT}
        </p>
      )}
    </Wrap>
  );
}

const RECORD = { loadingLabel: 'Loading your claim', unavailable: 'Claim not available' } as const;

/** The signed-in winner's own claim (another's is not found). */
function AccountClaim({ id }: { id: string }) {
  const user = useAuth((s) => s.user);
  const loaded = useRoute<typeof CLAIM_ROUTES.claim>(
    { method: 'GET', path: '/api/claims/:id' },
    user ? { params: { id } } : null,
  );
  const [claimed, setClaimed] = useState<ClaimView>();
  const send: Send = (body) =>
    call<typeof CLAIM_ROUTES.submitClaim>(
      { method: 'POST', path: '/api/claims/:id' },
      { params: { id }, body },
    );
  return (
    <SignedInRecord
      loaded={loaded}
      toDo="claim your prize"
      {...RECORD}
      back={{ href: '/my-competitions', label: 'Back to My Entries' }}
    >
      {(data) => <ClaimDetails claim={claimed ?? data} onClaimed={setClaimed} send={send} byLink={false} />}
    </SignedInRecord>
  );
}

/** A postal winner's claim, opened with the link's token: a wrong or expired link is refused and says so. */
function LinkedClaim({ id, token }: { id: string; token: string }) {
  const loaded = useRoute<typeof CLAIM_ROUTES.claimByLink>(
    { method: 'GET', path: '/api/claims/:id/link' },
    { params: { id }, query: { token } },
  );
  const [claimed, setClaimed] = useState<ClaimView>();
  const send: Send = (answer) =>
    call<typeof CLAIM_ROUTES.submitClaimByLink>(
      { method: 'POST', path: '/api/claims/:id/link' },
      { params: { id }, body: { ...answer, token } },
    );
  return (
    <LoadedRecord loaded={loaded} {...RECORD} back={{ href: '/', label: 'Back to the shop' }}>
      {(data) => <ClaimDetails claim={claimed ?? data} onClaimed={setClaimed} send={send} byLink />}
    </LoadedRecord>
  );
}

/** /claims/:id: the signed-in winner's claim, or with ?token=… a postal winner's (docs/draws.md#7-claiming-a-prize). */
export default function ClaimPage() {
  const { id = '' } = useParams<{ id: string }>();
  const token = new URLSearchParams(useSearch()).get('token');
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Claim your prize | ${siteName}`;
  }, [siteName]);

  return (
    <PageContainer>
      {token === null ? <AccountClaim id={id} /> : <LinkedClaim id={id} token={token} />}
    </PageContainer>
  );
}
