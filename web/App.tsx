import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import styled, { ThemeProvider } from 'styled-components';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { CheckoutDialog } from './components/checkout/CheckoutDialog';
import { Footer } from './components/layout/Footer';
import { Header } from './components/layout/Header';
import { Toaster } from './components/layout/Toaster';
import { VerifyEmailBanner } from './components/layout/VerifyEmailBanner';
import { Spinner } from './components/ui/Spinner';
import { startClockSync } from './live/clock';
import { startRealtime } from './live/socket';
import AdminLoginPage from './pages/account/AdminLoginPage';
import AuthPage from './pages/account/AuthPage';
import MyEntriesPage from './pages/account/MyEntriesPage';
import ProfilePage from './pages/account/ProfilePage';
import ResetPasswordPage from './pages/account/ResetPasswordPage';
import VerifyEmailPage from './pages/account/VerifyEmailPage';
import type { AdminPath } from './pages/admin/adminRoutes';
import CartPage from './pages/cart/CartPage';
import CheckoutPage from './pages/checkout/CheckoutPage';
import OrderConfirmationPage from './pages/checkout/OrderConfirmationPage';
import PaymentSuccessPage from './pages/checkout/PaymentSuccessPage';
import CompetitionDetailPage from './pages/competitions/CompetitionDetailPage';
import CompetitionsPage from './pages/competitions/CompetitionsPage';
import HomePage from './pages/home/HomePage';
import NotFoundPage from './pages/NotFoundPage';
import AboutPage from './pages/static/AboutPage';
import CookiesPage from './pages/static/CookiesPage';
import FaqPage from './pages/static/FaqPage';
import HowToPlayPage from './pages/static/HowToPlayPage';
import PrivacyPage from './pages/static/PrivacyPage';
import TermsPage from './pages/static/TermsPage';
import WinnersPage from './pages/winners/WinnersPage';
import { startAuthSync, useAuth } from './stores/auth';
import { startCartSync } from './stores/cart';
import { useSite } from './stores/site';
import { GlobalStyle } from './theme/GlobalStyle';
import { theme } from './theme/theme';

const Shell = styled.div`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  main { flex: 1; }
`;

/**
 * On every location change: scroll to the top, and re-check who is signed in (spec). The
 * socket's session:ended push covers sign-outs elsewhere, so there is no 5-second poll.
 */
function OnNavigation() {
  const [location] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => {
    // A block body on purpose: newer browsers return a Promise from scrollTo, and an effect must
    // return nothing or a clean-up function.
    window.scrollTo(0, 0);
    void useAuth.getState().refresh();
  }, [location]);
  return null;
}

// The admin screens load as their own chunk on first visit (customers never download them).
const ADMIN_PATHS: AdminPath[] = [
  '/admin',
  '/admin/competitions',
  '/admin/competitions/:id',
  '/admin/orders',
  '/admin/orders/:id',
  '/admin/users',
  '/admin/ticket-lookup',
  '/admin/site-settings',
  '/direct-site-settings',
  '/direct-upload-test',
  '/admin/promos',
];
const adminScreens = Object.fromEntries(
  ADMIN_PATHS.map((path) => [
    path,
    lazy(() => import('./pages/admin/adminRoutes').then((m) => ({ default: m.adminRoutes[path] }))),
  ]),
) as unknown as Record<AdminPath, ComponentType>;

export function Routes() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/competitions" component={CompetitionsPage} />
      <Route path="/competition/:id" component={CompetitionDetailPage} />
      <Route path="/competitions/:id" component={CompetitionDetailPage} />
      <Route path="/how-to-play" component={HowToPlayPage} />
      <Route path="/terms" component={TermsPage} />
      <Route path="/privacy" component={PrivacyPage} />
      <Route path="/cookies" component={CookiesPage} />
      <Route path="/faq" component={FaqPage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/winners" component={WinnersPage} />
      <Route path="/cart" component={CartPage} />
      <Route path="/checkout" component={CheckoutPage} />
      <Route path="/confirmation/:orderId" component={OrderConfirmationPage} />
      <Route path="/payment-success/:orderId" component={PaymentSuccessPage} />
      <Route path="/payment-success" component={PaymentSuccessPage} />
      <Route path="/my-competitions" component={MyEntriesPage} />
      <Route path="/my-tickets">
        <Redirect to="/my-competitions" replace />
      </Route>
      <Route path="/auth" component={AuthPage} />
      <Route path="/profile" component={ProfilePage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/verify-email" component={VerifyEmailPage} />
      <Route path="/admin-login" component={AdminLoginPage} />
      {ADMIN_PATHS.map((path) => (
        <Route key={path} path={path} component={adminScreens[path]} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function App() {
  useEffect(() => {
    void useSite.getState().load();
    // Each store subscribes to its socket events before the socket connects.
    startClockSync();
    startAuthSync();
    void startRealtime(); // session first, then the socket (clock, live tickets, private rooms)
    startCartSync();
    const onFocus = () => void useAuth.getState().refresh();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <OnNavigation />
      <Shell>
        <Header />
        <VerifyEmailBanner />
        <main id="main">
          <Suspense fallback={<Spinner label="Loading page" />}>
            <Routes />
          </Suspense>
        </main>
        <Footer />
      </Shell>
      <CheckoutDialog />
      <Toaster />
    </ThemeProvider>
  );
}
