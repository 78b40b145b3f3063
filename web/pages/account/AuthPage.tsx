import { useEffect } from 'react';
import styled from 'styled-components';
import { useLocation, useSearch } from 'wouter';
import { ensureCsrfToken, messageOf } from '../../api/client';
import { ForgotPassword } from '../../components/auth/ForgotPassword';
import { RegisterForm } from '../../components/auth/RegisterForm';
import { AuthSidePanel } from '../../components/auth/SidePanel';
import { SignInForm } from '../../components/auth/SignInForm';
import { Card, PageContainer } from '../../components/ui/Page';
import { isSignInCancelled, useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';
import { media } from '../../theme/theme';

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  ${media.lg} { grid-template-columns: 1.2fr 1fr; align-items: start; }
`;

const Tabs = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  margin-bottom: ${({ theme }) => theme.space.lg};
  border-bottom: 2px solid ${({ theme }) => theme.colors.border};
`;

const Tab = styled.button<{ $active: boolean }>`
  min-height: 44px;
  border: 0;
  background: none;
  font-weight: 700;
  cursor: pointer;
  color: ${({ $active, theme }) => ($active ? theme.colors.brand : theme.colors.textMuted)};
  border-bottom: 3px solid ${({ $active, theme }) => ($active ? theme.colors.accent : 'transparent')};
  margin-bottom: -2px;
`;

const Heading = styled.h1`
  margin: 0 0 ${({ theme }) => theme.space.md};
  color: ${({ theme }) => theme.colors.brand};
`;

export default function AuthPage() {
  const siteName = useSiteName();
  const search = useSearch();
  const [, navigate] = useLocation();
  const tab = new URLSearchParams(search).get('tab') === 'register' ? 'register' : 'login';
  // Home after the spec's 300 ms. A client-side move: the auth store already holds the user and the
  // socket reconnects with the new session by itself, so the success toast stays on screen.
  const goHome = () => setTimeout(() => navigate('/'), 300);

  useEffect(() => {
    document.title = `${tab === 'register' ? 'Register' : 'Sign In'} | ${siteName}`;
  }, [tab, siteName]);

  // On load: a CSRF token (failure tolerated) and the current user. A visitor who arrives signed
  // in goes home; after signing in here, the success handler does the (full) navigation instead.
  useEffect(() => {
    void ensureCsrfToken();
    void useAuth
      .getState()
      .refresh()
      .then((current) => {
        if (current) navigate('/', { replace: true });
      });
  }, [navigate]);

  const signIn = async ({ username, password }: { username: string; password: string }) => {
    try {
      const signedIn = await useAuth.getState().login(username, password);
      toast({
        title: 'Login successful',
        description: `Welcome back, ${signedIn.username}!`,
        variant: 'success',
      });
      goHome();
    } catch (err) {
      if (!isSignInCancelled(err))
        toast({
          title: 'Login failed',
          description: messageOf(err, 'Please check your credentials and try again'),
          variant: 'destructive',
        });
      throw err;
    }
  };

  const register = async (values: Record<string, unknown>) => {
    try {
      const created = await useAuth.getState().register(values);
      toast({
        title: 'Registration successful',
        description: `Welcome, ${created.username}!`,
        variant: 'success',
      });
      goHome();
    } catch (err) {
      toast({
        title: 'Registration Failed',
        description: messageOf(err, 'An error occurred during registration'),
        variant: 'destructive',
      });
      throw err;
    }
  };

  return (
    <PageContainer>
      <Layout>
        <Card>
          <Tabs role="tablist" aria-label="Sign in or register">
            <Tab
              type="button"
              role="tab"
              aria-selected={tab === 'login'}
              $active={tab === 'login'}
              onClick={() => navigate('/auth', { replace: true })}
            >
              Sign In
            </Tab>
            <Tab
              type="button"
              role="tab"
              aria-selected={tab === 'register'}
              $active={tab === 'register'}
              onClick={() => navigate('/auth?tab=register', { replace: true })}
            >
              Register
            </Tab>
          </Tabs>
          {tab === 'login' ? (
            <div role="tabpanel" aria-label="Sign In">
              <Heading>Welcome Back</Heading>
              <SignInForm onSubmit={signIn} />
              <ForgotPassword startOpen={new URLSearchParams(search).has('forgot')} />
            </div>
          ) : (
            <div role="tabpanel" aria-label="Register">
              <Heading>Join {siteName}</Heading>
              <RegisterForm onSubmit={register} />
            </div>
          )}
        </Card>
        <AuthSidePanel />
      </Layout>
    </PageContainer>
  );
}
