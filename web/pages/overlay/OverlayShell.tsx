import { lazy, Suspense } from 'react';
import styled, { createGlobalStyle } from 'styled-components';
import { Route, Switch, useSearch } from 'wouter';
import { OVERLAY_PAGE_PATHS, type OverlayPagePath } from '../../../contract/routes';
import { GlobalStyle } from '../../theme/GlobalStyle';

/** The chroma-key colour of `?chroma=1`: a pure green, far from the overlay's own colours. */
export const CHROMA_GREEN = '#00b140';

// Over the site's global style: nothing but the overlay's own boxes is painted.
const OverlayBackground = createGlobalStyle<{ $chroma: boolean }>`
  html, body { background: ${({ $chroma }) => ($chroma ? CHROMA_GREEN : 'transparent')}; }
  body { overflow: hidden; }
`;

// An OBS browser source is 1920×1080; the overlay lays out for exactly that.
const Frame = styled.main`
  width: 1920px;
  height: 1080px;
  box-sizing: border-box;
  padding: 48px 64px;
  display: flex;
  flex-direction: column;
  justify-content: flex-end;
  gap: 24px;
  --stage-size: 3.5rem;
  --big-size: 5rem;
  --reveal-size: 2.75rem;
  font-size: 1.75rem;
`;

const screens: Record<OverlayPagePath, ReturnType<typeof lazy>> = {
  '/overlay/draw/:id': lazy(() => import('./DrawOverlayPage')),
  '/overlay/grid/:id': lazy(() => import('./GridOverlayPage')),
};

/** The overlays: no header, footer or banners, only the overlay on a transparent or chroma page. */
export function OverlayShell() {
  const chroma = new URLSearchParams(useSearch()).get('chroma') === '1';
  return (
    <>
      <GlobalStyle />
      <OverlayBackground $chroma={chroma} />
      <Frame data-testid="overlay" data-chroma={chroma}>
        <Suspense fallback={null}>
          <Switch>
            {OVERLAY_PAGE_PATHS.map((path) => (
              <Route key={path} path={path} component={screens[path]} />
            ))}
          </Switch>
        </Suspense>
      </Frame>
    </>
  );
}
