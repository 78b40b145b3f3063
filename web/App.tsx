import { useEffect } from 'react';
import styled, { ThemeProvider } from 'styled-components';
import { Route, Switch, useLocation } from 'wouter';
import { Footer } from './components/layout/Footer';
import { Header } from './components/layout/Header';
import { Toaster } from './components/layout/Toaster';
import { getSocket } from './live/socket';
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
import { useSite } from './stores/site';
import { GlobalStyle } from './theme/GlobalStyle';
import { theme } from './theme/theme';

const Shell = styled.div`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  main { flex: 1; }
`;

/** The page scrolls to the top on every location change (spec). */
function ScrollToTop() {
  const [location] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => {
    // A block body on purpose: newer browsers return a Promise from scrollTo, and an effect must
    // return nothing or a clean-up function.
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

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
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function App() {
  useEffect(() => {
    void useSite.getState().load();
    getSocket(); // connects and starts following the server clock
  }, []);
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <ScrollToTop />
      <Shell>
        <Header />
        <main id="main">
          <Routes />
        </main>
        <Footer />
      </Shell>
      <Toaster />
    </ThemeProvider>
  );
}
