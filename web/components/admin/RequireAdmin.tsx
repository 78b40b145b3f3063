import { type ReactNode, useState } from 'react';
import { Redirect } from 'wouter';
import { isAdmin, useAuth } from '../../stores/auth';
import { TwoFactorSettings } from '../auth/TwoFactorSettings';
import { Card, PageContainer, PageTitle } from '../ui/Page';
import { Spinner } from '../ui/Spinner';
import { AdminNav } from './AdminNav';

/**
 * Under ADMIN_REQUIRE_2FA, in place of every back-office screen until the admin turns on
 * two-factor sign-in (the server refuses their admin calls until then).
 */
function TwoFactorRequired({ onDone }: { onDone: () => void }) {
  return (
    <PageContainer>
      <PageTitle>Set up two-factor sign-in</PageTitle>
      <Card aria-labelledby="admin-2fa-title">
        <h2 id="admin-2fa-title">Two-factor sign-in is required for admins</h2>
        <p>
          Admin accounts can move money, so they sign in with a code from an authenticator app as well as the
          password. Set it up to continue to the back office.
        </p>
        <TwoFactorSettings onDone={onDone} />
      </Card>
    </PageContainer>
  );
}

/**
 * The admin route guard (docs/product.md#admin-access): signed out goes to /auth, a customer to
 * /, an admin who owes the two-factor setup to it. The server refuses every admin call anyway;
 * this only keeps people off screens they cannot use.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useAuth((s) => s.user);
  const status = useAuth((s) => s.status);
  // Kept up after it is turned on, until the admin has saved the recovery codes shown on it.
  const [settingUp, setSettingUp] = useState(false);
  const mustSetUp = isAdmin(user) && Boolean(user?.twoFactorSetupRequired);
  if (mustSetUp && !settingUp) setSettingUp(true);
  if (isAdmin(user) && (mustSetUp || settingUp))
    return <TwoFactorRequired onDone={() => setSettingUp(false)} />;
  if (isAdmin(user)) return <>{children}</>;
  if (status === 'loading') return <Spinner label="Checking your account" />;
  return <Redirect to={user ? '/' : '/auth'} replace />;
}

/** Wraps a page component in the guard, for the router table. */
export const adminOnly = (Page: () => ReactNode) =>
  function AdminRoute() {
    return (
      <RequireAdmin>
        <AdminNav />
        <Page />
      </RequireAdmin>
    );
  };
