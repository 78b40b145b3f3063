import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { isAdmin, useAuth } from '../../stores/auth';
import { Spinner } from '../ui/Spinner';

/**
 * The admin route guard (docs/product.md#admin-access): signed out goes to /auth, a customer to
 * /. The server refuses every admin call anyway; this only keeps people off screens they cannot use.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useAuth((s) => s.user);
  const status = useAuth((s) => s.status);
  if (isAdmin(user)) return <>{children}</>;
  if (status === 'loading') return <Spinner label="Checking your account" />;
  return <Redirect to={user ? '/' : '/auth'} replace />;
}

/** Wraps a page component in the guard, for the router table. */
export const adminOnly = (Page: () => ReactNode) =>
  function AdminRoute() {
    return (
      <RequireAdmin>
        <Page />
      </RequireAdmin>
    );
  };
