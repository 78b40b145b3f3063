import { useEffect } from 'react';
import styled from 'styled-components';
import { messageOf } from '../../api/client';
import { SignInForm } from '../../components/auth/SignInForm';
import { Card, PageContainer, PageTitle } from '../../components/ui/Page';
import { isAdmin, isSignInCancelled, useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';

const Narrow = styled.div`
  max-width: 440px;
  margin: 0 auto;
`;

export const NOT_ADMIN = "You don't have admin privileges";

/**
 * Admin sign-in: one plain 'Sign In' (the spec's 'Direct Login' and 'Context Login' did the same
 * thing). Admins go to /admin after about a second; anyone else is signed out again.
 */
export default function AdminLoginPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Admin Login | ${siteName}`;
  }, [siteName]);

  const submit = async ({ username, password }: { username: string; password: string }) => {
    let user: Awaited<ReturnType<ReturnType<typeof useAuth.getState>['login']>>;
    try {
      user = await useAuth.getState().login(username, password);
    } catch (err) {
      if (!isSignInCancelled(err))
        toast({
          title: 'Login Failed',
          description: messageOf(err, 'Please check your credentials and try again'),
          variant: 'destructive',
        });
      throw err;
    }
    if (!isAdmin(user)) {
      await useAuth
        .getState()
        .logout()
        .catch(() => undefined);
      toast({ title: 'Access Denied', description: NOT_ADMIN, variant: 'destructive' });
      throw new Error(NOT_ADMIN);
    }
    toast({ title: 'Login successful', description: `Welcome back, ${user.username}!`, variant: 'success' });
    setTimeout(() => window.location.assign('/admin'), 1000);
  };

  return (
    <PageContainer>
      <Narrow>
        <PageTitle>Admin Login</PageTitle>
        <Card>
          <SignInForm onSubmit={submit} submitLabels={['Sign In']} idPrefix="admin" />
        </Card>
      </Narrow>
    </PageContainer>
  );
}
