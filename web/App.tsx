import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import styled, { ThemeProvider } from 'styled-components';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import {
  ADMIN_PAGE_PATHS,
  type AdminPagePath,
  CUSTOMER_PAGE_PATHS,
  type CustomerPagePath,
} from '../contract/routes';
import { Header } from './components/layout/Header';
import { PromoBanner } from './components/layout/PromoBanner';
import { ReconnectingBanner } from './components/layout/ReconnectingBanner';
import { SkipLink } from './components/layout/SkipLink';
import { VerifyEmailBanner } from './components/layout/VerifyEmailBanner';
import { Spinner } from './components/ui/Spinner';
import { startClockSync } from './live/clock';
import { startConnectionWatch } from './live/connection';
import { startRealtime } from './live/socket';
import HomePage from './pages/home/HomePage';
import { startAuthSync, useAuth } from './stores/auth';
import { startCartSync } from './stores/cart';
import { useCheckout } from './stores/checkout';
import { useDateOfBirthPrompt } from './stores/dateOfBirth';
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

// The footer starts below the fold on every page (main is at least a screen tall), so it loads as
// its own chunk after the first paint: the first-load budget goes to what the visitor sees first.
const Footer = lazy(() => import('./components/layout/Footer').then((m) => ({ default: m.Footer })));

const MyTicketsRedirect = () => <Redirect to="/my-competitions" replace />;

// Every customer page but Home is a chunk of its own, fetched on first visit: the first load of
// the home page carries only the shell and Home (docs/performance.md#first-load). Home stays in
// the entry because it is the usual landing page and would otherwise cost a second round trip.
const CompetitionDetailPage = lazy(() => import('./pages/competitions/CompetitionDetailPage'));

// Every customer page of the shared route table (contract/routes.ts), which the server also reads
// to answer 404 for any other path.
const customerScreens: Record<CustomerPagePath, ComponentType> = {
  '/': HomePage,
  '/competitions': lazy(() => import('./pages/competitions/CompetitionsPage')),
  '/competition/:id': CompetitionDetailPage,
  '/competitions/:id': CompetitionDetailPage,
  '/competitions/:id/draw': lazy(() => import('./pages/competitions/DrawRoomPage')),
  '/how-to-play': lazy(() => import('./pages/static/HowToPlayPage')),
  '/terms': lazy(() => import('./pages/static/TermsPage')),
  '/privacy': lazy(() => import('./pages/static/PrivacyPage')),
  '/cookies': lazy(() => import('./pages/static/CookiesPage')),
  '/faq': lazy(() => import('./pages/static/FaqPage')),
  '/about': lazy(() => import('./pages/static/AboutPage')),
  '/winners': lazy(() => import('./pages/winners/WinnersPage')),
  '/cart': lazy(() => import('./pages/cart/CartPage')),
  '/checkout': lazy(() => import('./pages/checkout/CheckoutPage')),
  '/confirmation/:orderId': lazy(() => import('./pages/checkout/OrderConfirmationPage')),
  '/payment-success/:orderId': lazy(() => import('./pages/checkout/PaymentSuccessPage')),
  '/payment-success': lazy(() => import('./pages/checkout/PaymentSuccessPage')),
  '/my-competitions': lazy(() => import('./pages/account/MyEntriesPage')),
  '/my-tickets': MyTicketsRedirect,
  '/auth': lazy(() => import('./pages/account/AuthPage')),
  '/profile': lazy(() => import('./pages/account/ProfilePage')),
  '/claims/:id': lazy(() => import('./pages/account/ClaimPage')),
  '/orders/:orderId/receipt': lazy(() => import('./pages/account/OrderReceiptPage')),
  '/reset-password': lazy(() => import('./pages/account/ResetPasswordPage')),
  '/verify-email': lazy(() => import('./pages/account/VerifyEmailPage')),
  '/two-factor-not-me': lazy(() => import('./pages/account/TwoFactorNotMePage')),
  '/admin-login': lazy(() => import('./pages/account/AdminLoginPage')),
};
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

// The two app-wide dialogs are fetched the first time they open (after a user action or a refused
// hold), then stay mounted.
const CheckoutDialog = lazy(() =>
  import('./components/checkout/CheckoutDialog').then((m) => ({ default: m.CheckoutDialog })),
);
const DateOfBirthDialog = lazy(() =>
  import('./components/account/DateOfBirthDialog').then((m) => ({ default: m.DateOfBirthDialog })),
);

/** Renders `children` from the first time `open` is true on. */
function MountOnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}

export function OnDemandDialogs() {
  const checkoutOpen = useCheckout((s) => s.phase !== 'closed');
  const dateOfBirthOpen = useDateOfBirthPrompt((s) => s.open);
  return (
    <>
      <MountOnceOpened open={checkoutOpen}>
        <CheckoutDialog />
      </MountOnceOpened>
      <MountOnceOpened open={dateOfBirthOpen}>
        <DateOfBirthDialog />
      </MountOnceOpened>
    </>
  );
}

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

const OverlayShell = lazy(() =>
  import('./pages/overlay/OverlayShell').then((m) => ({ default: m.OverlayShell })),
);

export function App() {
  const [location] = useLocation();
  useEffect(() => {
    void useSite.getState().load();
    // Each store subscribes to its socket events before the socket connects.
    startClockSync();
    startConnectionWatch();
    startAuthSync();
    void startRealtime(); // session first, then the socket (clock, live tickets, private rooms)
    startCartSync();
    const onFocus = () => void useAuth.getState().refresh();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
  // A streamer's overlay (OBS browser source): the overlay alone, no site around it.
  if (location.startsWith('/overlay/'))
    return (
      <ThemeProvider theme={theme}>
        <Suspense fallback={null}>
          <OverlayShell />
        </Suspense>
      </ThemeProvider>
    );
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <OnNavigation />
      <Shell>
        <SkipLink target="main" />
        <Header />
        <VerifyEmailBanner />
        <ReconnectingBanner />
        <main id="main" tabIndex={-1}>
          <Suspense fallback={<Spinner label="Loading page" />}>
            <Routes />
          </Suspense>
        </main>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
        {/* Last in the flow so that its late arrival shifts nothing (PromoBanner.tsx). */}
        <PromoBanner />
      </Shell>
      <OnDemandDialogs />
    </ThemeProvider>
  );
}
