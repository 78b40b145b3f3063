import { useCallback, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import type { DRAW_ROUTES } from '../../../contract/apiDraws';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { Button } from '../ui/Button';
import { Hash } from './Hash';
import { type DrawCheck, type PublishedDraw, verifyDraw } from './verifyDraw';

const Panel = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  h3 { margin: 0; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; }
`;

const Checks = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  li {
    display: grid;
    gap: 2px;
    padding: ${({ theme }) => theme.space.sm};
    border-radius: ${({ theme }) => theme.radii.md};
    border-left: 4px solid;
    min-width: 0;
  }
  li[data-status='passed'] { border-color: ${({ theme }) => theme.colors.success}; background: ${({ theme }) => theme.colors.successBg}; }
  li[data-status='failed'] { border-color: ${({ theme }) => theme.colors.danger}; background: ${({ theme }) => theme.colors.dangerBg}; }
  .verdict { font-weight: 700; }
  li[data-status='passed'] .verdict { color: ${({ theme }) => theme.colors.success}; }
  li[data-status='failed'] .verdict { color: ${({ theme }) => theme.colors.danger}; }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
`;

/** A check's verdict: green when it passed, red when not (also the instant-wins check). */
export const Summary = styled.p<{ $ok: boolean }>`
  font-weight: 700;
  color: ${({ $ok, theme }) => ($ok ? theme.colors.success : theme.colors.danger)};
`;

type State =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; checks: DrawCheck[]; entryCount: number }
  | { kind: 'error'; message: string };

export const VERIFY_ANCHOR = 'verify-draw';

export const NO_WEBCRYPTO =
  'This browser cannot run the check here: it needs WebCrypto, which browsers offer on https pages.';

/**
 * 'Verify this draw': fetches the sold numbers from the public API and recomputes the commitment,
 * the entries hash and the winning number in this browser (contract/draw.ts on WebCrypto).
 * Opened from a link ending in #verify-draw (the winners list), it scrolls here and runs at once.
 */
export function VerifyDrawPanel({ competitionId, draw }: { competitionId: number; draw: PublishedDraw }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const ref = useRef<HTMLElement>(null);

  const run = useCallback(async () => {
    if (!globalThis.crypto?.subtle) {
      setState({
        kind: 'error',
        message: NO_WEBCRYPTO,
      });
      return;
    }
    setState({ kind: 'running' });
    try {
      const entries = await call<typeof DRAW_ROUTES.drawEntries>(
        { method: 'GET', path: '/api/competitions/:id/draw-entries' },
        { params: { id: competitionId } },
      );
      const checks = await verifyDraw(draw, entries.numbers);
      setState({ kind: 'done', checks, entryCount: entries.numbers.length });
    } catch (err) {
      setState({ kind: 'error', message: messageOf(err, 'The sold numbers could not be loaded.') });
    }
  }, [competitionId, draw]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only on arrival from a #verify-draw link
  useEffect(() => {
    if (window.location.hash !== `#${VERIFY_ANCHOR}`) return;
    // After the router's own scroll to the top on navigation.
    const timer = setTimeout(() => ref.current?.scrollIntoView({ block: 'start' }), 50);
    void run();
    return () => clearTimeout(timer);
  }, []);

  const failed = state.kind === 'done' ? state.checks.filter((c) => c.status === 'failed').length : 0;
  return (
    <Panel ref={ref} id={VERIFY_ANCHOR} aria-labelledby="verify-title" data-testid="verify-panel">
      <h3 id="verify-title">Verify this draw</h3>
      <p>
        Your browser fetches the list of sold numbers and recomputes the draw with the published rule, without
        trusting our arithmetic.
      </p>
      <div>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => void run()}
          disabled={state.kind === 'running'}
        >
          {state.kind === 'running'
            ? 'Checking…'
            : state.kind === 'done'
              ? 'Verify again'
              : 'Verify this draw'}
        </Button>
      </div>
      <div aria-live="polite">
        {state.kind === 'error' && <p role="alert">{state.message}</p>}
        {state.kind === 'done' && (
          <>
            <Summary $ok={failed === 0} data-testid="verify-summary">
              {failed === 0
                ? `All ${state.checks.length} checks passed: the winning number is exactly what the rule gives.`
                : `${failed} of ${state.checks.length} checks failed. Please contact us.`}
            </Summary>
            <Checks aria-label="Verification checks">
              {state.checks.map((c) => (
                <li key={c.key} data-status={c.status} data-testid="verify-check">
                  <span>
                    <span className="verdict">{c.status === 'passed' ? '✔ Passed' : '✘ Failed'}</span>:{' '}
                    {c.label}
                  </span>
                  <small>
                    Published <Hash>{c.published}</Hash>
                    {c.status === 'failed' && (
                      <>
                        {' '}
                        · computed <Hash>{c.computed}</Hash>
                      </>
                    )}
                  </small>
                </li>
              ))}
            </Checks>
          </>
        )}
      </div>
    </Panel>
  );
}
