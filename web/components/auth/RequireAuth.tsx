import { type ReactNode, useState } from 'react';
import { useAuth } from '../../stores/auth';
import { Button } from '../ui/Button';
import { CenteredMessage, PageContainer } from '../ui/Page';
import { Spinner } from '../ui/Spinner';
import { LoginDialog } from './LoginDialog';

/**
 * The protected-route guard: a spinner while the user loads, 'Authentication Required' with a
 * Log In dialog when nobody is signed in, else the page. The server checks again on every call.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useAuth((s) => s.user);
  const status = useAuth((s) => s.status);
  const [dialogOpen, setDialogOpen] = useState(false);
  if (!user && status === 'loading') return <Spinner label="Checking your account" />;
  if (user) return <>{children}</>;
  return (
    <PageContainer>
      <CenteredMessage>
        <h1>Authentication Required</h1>
        <p>Please log in to access this page.</p>
        <Button type="button" onClick={() => setDialogOpen(true)}>
          Log In
        </Button>
      </CenteredMessage>
      <LoginDialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        description="Please log in to access this page."
      />
    </PageContainer>
  );
}
