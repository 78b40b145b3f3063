import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { Link } from 'wouter';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { PhoneNumberSchema, type PublicUser } from '../../../contract/auth';
import { formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { ComplaintsSection } from '../../components/account/ComplaintsSection';
import { DeliveryAddressSection } from '../../components/account/DeliveryAddressSection';
import { MarketingConsent } from '../../components/account/MarketingConsent';
import { SpendingLimits, TakeABreak } from '../../components/account/PlayerProtection';
import { PrivacySection } from '../../components/account/PrivacySection';
import { PublicNameSection } from '../../components/account/PublicNameSection';
import { ReferralSection } from '../../components/account/ReferralSection';
import { WatchingSection } from '../../components/account/WatchingSection';
import { PromoCodeForm } from '../../components/auth/PromoCodeForm';
import { OrderHistory } from '../../components/orders/OrderHistory';
import { Button } from '../../components/ui/Button';
import { ErrorBox, Field, fieldErrors } from '../../components/ui/Form';
import { Card, PageContainer, PageTitle } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../stores/auth';
import { useDateOfBirthPrompt } from '../../stores/dateOfBirth';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';
import { media } from '../../theme/theme';
import { DeleteAccount, DownloadData } from './PrivacyControls';
import { SecuritySection } from './SecuritySection';

const Grid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1.4fr 1fr; align-items: start; }
  h2 { margin: 0 0 ${({ theme }) => theme.space.md}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.xl}; }
`;

const Details = styled.dl`
  display: grid;
  grid-template-columns: minmax(110px, auto) 1fr;
  gap: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
`;

const Balance = styled.p`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.display};
  font-weight: 700;
  color: ${({ theme }) => theme.colors.success};
  margin: 0;
`;

const History = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li { display: flex; justify-content: space-between; gap: ${({ theme }) => theme.space.md}; padding: ${({ theme }) => theme.space.sm} 0; border-bottom: 1px solid ${({ theme }) => theme.colors.border}; }
  small { display: block; color: ${({ theme }) => theme.colors.textMuted}; }
  strong[data-type='credit'] { color: ${({ theme }) => theme.colors.success}; }
  strong[data-type='debit'] { color: ${({ theme }) => theme.colors.danger}; }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  align-items: center;
`;

const Links = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.lg};
  margin-top: ${({ theme }) => theme.space.xl};
  a { color: ${({ theme }) => theme.colors.info}; font-weight: 600; }
`;

/** Phone number: viewing, editing, then saved or cancelled (docs/product.md#profile). */
function PhoneNumber({ user }: { user: PublicUser }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(user.phoneNumber);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const result = v.safeParse(PhoneNumberSchema, { phoneNumber: value });
    if (!result.success) {
      setError(fieldErrors(result.issues).phoneNumber);
      return;
    }
    setSaving(true);
    try {
      const updated = await call<typeof ACCOUNT_ROUTES.phoneNumber>(
        { method: 'PUT', path: '/api/user/phone-number' },
        { body: result.output },
      );
      useAuth.getState().setUser(updated);
      setEditing(false);
      setError(undefined);
      toast({ title: 'Phone number updated', variant: 'success' });
    } catch (err) {
      setError(messageOf(err, 'Failed to update phone number'));
      toast({
        title: 'Failed to update phone number',
        description: messageOf(err, ''),
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  if (!editing) {
    return (
      <Row>
        <span data-testid="phone-number">{user.phoneNumber}</span>
        <Button type="button" $variant="ghost" onClick={() => setEditing(true)}>
          Edit
        </Button>
      </Row>
    );
  }
  return (
    <form onSubmit={save} noValidate>
      <Field
        id="profile-phone"
        label="Phone number"
        type="tel"
        value={value}
        error={error}
        onChange={(e) => setValue(e.target.value)}
      />
      <Row style={{ marginTop: 8 }}>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
        <Button
          type="button"
          $variant="ghost"
          onClick={() => {
            setEditing(false);
            setValue(user.phoneNumber);
            setError(undefined);
          }}
        >
          Cancel
        </Button>
      </Row>
    </form>
  );
}

function CreditCard() {
  const credit = useRoute<typeof ACCOUNT_ROUTES.credit>({ method: 'GET', path: '/api/user/credit' }, {});
  const history = useRoute<typeof ACCOUNT_ROUTES.creditTransactions>(
    { method: 'GET', path: '/api/user/credit/transactions' },
    {},
  );
  return (
    <Card aria-labelledby="credit-title">
      <h2 id="credit-title">Site Credit</h2>
      {credit.error ? (
        <ErrorBox>We couldn't load your credit balance.</ErrorBox>
      ) : (
        <Balance data-testid="credit-balance">{credit.data ? formatPounds(credit.data.credit) : '…'}</Balance>
      )}
      <p>Use your credit at checkout on baskets of £5.00 or more.</p>
      <PromoCodeForm
        onRedeemed={() => {
          credit.reload();
          history.reload();
          void useAuth.getState().refresh();
        }}
      />
      <h3>Credit history</h3>
      {history.data && history.data.length === 0 && <p>No credit activity yet.</p>}
      {history.data && history.data.length > 0 && (
        <History aria-label="Credit history">
          {history.data.map((t) => (
            <li key={t.id}>
              <span>
                {t.description}
                <small>{formatLongDate(t.createdAt)}</small>
              </span>
              <strong data-type={t.type}>
                {t.type === 'credit' ? '+' : '−'}
                {formatPounds(t.amount)}
              </strong>
            </li>
          ))}
        </History>
      )}
    </Card>
  );
}

export default function ProfilePage() {
  const siteName = useSiteName();
  const user = useAuth((s) => s.user);
  const status = useAuth((s) => s.status);
  useEffect(() => {
    document.title = `My Profile | ${siteName}`;
  }, [siteName]);

  if (!user && status === 'loading') return <Spinner label="Loading your profile" />;
  if (!user) {
    return (
      <PageContainer>
        <Card>
          <p>Please log in to view your profile.</p>
          <Link href="/auth">Log in or create an account</Link>
        </Card>
      </PageContainer>
    );
  }
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || '—';
  return (
    <PageContainer>
      <PageTitle>My Profile</PageTitle>
      <Grid>
        <Card aria-labelledby="account-title">
          <h2 id="account-title">Account Information</h2>
          <Details>
            <dt>Username</dt>
            <dd>{user.username}</dd>
            <dt>Email</dt>
            <dd className="email">{user.email}</dd>
            <dt>Name</dt>
            <dd>{name}</dd>
            <dt>Phone</dt>
            <dd>
              <PhoneNumber user={user} />
            </dd>
            <dt>Delivery address</dt>
            <dd>
              <DeliveryAddressSection user={user} />
            </dd>
            <dt>Date of birth</dt>
            <dd data-testid="date-of-birth">
              {user.dateOfBirth ? (
                formatLongDate(`${user.dateOfBirth}T12:00:00Z`)
              ) : (
                <Button type="button" $variant="ghost" onClick={useDateOfBirthPrompt.getState().ask}>
                  Add date of birth
                </Button>
              )}
            </dd>
            <dt>Member since</dt>
            <dd>{formatLongDate(user.createdAt)}</dd>
          </Details>
        </Card>
        <Card aria-labelledby="public-name-title">
          <h2 id="public-name-title">Public name</h2>
          <PublicNameSection />
        </Card>
        <CreditCard />
        <ReferralSection />
        <WatchingSection />
        <SpendingLimits />
        <TakeABreak />
        <SecuritySection email={user.email} />
        <PrivacySection>
          <MarketingConsent user={user} />
          <DownloadData />
          <DeleteAccount />
        </PrivacySection>
      </Grid>
      <OrderHistory />
      <ComplaintsSection />
      <Links aria-label="Account links">
        <Link href="/">Home</Link>
        <Link href="/cart">My Cart</Link>
        <Link href="/my-competitions">My Entries</Link>
      </Links>
    </PageContainer>
  );
}
