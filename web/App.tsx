import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import styled, { ThemeProvider } from 'styled-components';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import {
  ADMIN_PAGE_PATHS,
  type AdminPagePath,
  CUSTOMER_PAGE_PATHS,
  type CustomerPagePath,
} from '../contract/routes';
import { DateOfBirthDialog } from './components/account/DateOfBirthDialog';
import { CheckoutDialog } from './components/checkout/CheckoutDialog';
import { Footer } from './components/layout/Footer';
import { Header } from './components/layout/Header';
import { SkipLink } from './components/layout/SkipLink';
import { VerifyEmailBanner } from './components/layout/VerifyEmailBanner';
import { Spinner } from './components/ui/Spinner';
import { startClockSync } from './live/clock';
import { startRealtime } from './live/socket';
import AdminLoginPage from './pages/account/AdminLoginPage';
import AuthPage from './pages/account/AuthPage';
import MyEntriesPage from './pages/account/MyEntriesPage';
import OrderReceiptPage from './pages/account/OrderReceiptPage';
import ProfilePage from './pages/account/ProfilePage';
import ResetPasswordPage from './pages/account/ResetPasswordPage';
import VerifyEmailPage from './pages/account/VerifyEmailPage';
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
  main:focus { outline: none; }
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
const adminScreens = Object.fromEntries(
  ADMIN_PAGE_PATHS.map((path) => [
    path,
    lazy(() => import('./pages/admin/adminRoutes').then((m) => ({ default: m.adminRoutes[path] }))),
  ]),
) as unknown as Record<AdminPagePath, ComponentType>;

const MyTicketsRedirect = () => <Redirect to="/my-competitions" replace />;

// Every customer page of the shared route table (contract/routes.ts), which the server also reads
// to answer 404 for any other path.
const customerScreens: Record<CustomerPagePath, ComponentType> = {
  '/': HomePage,
  '/competitions': CompetitionsPage,
  '/competition/:id': CompetitionDetailPage,
  '/competitions/:id': CompetitionDetailPage,
  '/how-to-play': HowToPlayPage,
  '/terms': TermsPage,
  '/privacy': PrivacyPage,
  '/cookies': CookiesPage,
  '/faq': FaqPage,
  '/about': AboutPage,
  '/winners': WinnersPage,
  '/cart': CartPage,
  '/checkout': CheckoutPage,
  '/confirmation/:orderId': OrderConfirmationPage,
  '/payment-success/:orderId': PaymentSuccessPage,
  '/payment-success': PaymentSuccessPage,
  '/my-competitions': MyEntriesPage,
  '/my-tickets': MyTicketsRedirect,
  '/auth': AuthPage,
  '/profile': ProfilePage,
  '/orders/:orderId/receipt': OrderReceiptPage,
  '/reset-password': ResetPasswordPage,
  '/verify-email': VerifyEmailPage,
  '/admin-login': AdminLoginPage,
};

export function Routes() {
  return (
    <Switch>
      {CUSTOMER_PAGE_PATHS.map((path) => (
        <Route key={path} path={path} component={customerScreens[path]} />
      ))}
      {ADMIN_PAGE_PATHS.map((path) => (
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
        <SkipLink target="main" />
        <Header />
        <VerifyEmailBanner />
        <main id="main" tabIndex={-1}>
          <Suspense fallback={<Spinner label="Loading page" />}>
            <Routes />
          </Suspense>
        </main>
        <Footer />
      </Shell>
      <CheckoutDialog />
      <DateOfBirthDialog />
    </ThemeProvider>
  );
}
