import { useState } from 'react';
import styled from 'styled-components';
import {
  INSTANT_WIN_RETIRED,
  type InstantWinReveal,
  type PublicInstantWin,
  verifyInstantWinReveal,
} from '../../../contract/instantWins';
import { useLiveInstantWins } from '../../live/instantWinStore';
import { theme } from '../../theme/theme';
import { Hash } from '../draws/Hash';
import { NO_WEBCRYPTO, Summary } from '../draws/VerifyDrawPanel';
import { Button } from '../ui/Button';
import { useMediaQuery } from '../ui/useMediaQuery';
import { groupInstantWins, groupLine } from './instantWinGroups';

const PHONE = `(max-width: ${theme.breakpoints.md - 1}px)`;

const Panel = styled.section`
  margin-top: ${({ theme }) => theme.space.xxl};
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; }
`;

const Prizes = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  li {
    display: grid;
    gap: 2px;
    padding: ${({ theme }) => theme.space.sm};
    border-radius: ${({ theme }) => theme.radii.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
  }
  li[data-won='true'] { border-color: ${({ theme }) => theme.colors.success}; background: ${({ theme }) => theme.colors.successBg}; }
  .title { font-weight: 700; }
  .state { font-size: ${({ theme }) => theme.fontSizes.sm}; color: ${({ theme }) => theme.colors.textMuted}; }
`;

type Check =
  | { kind: 'idle' | 'running' }
  | { kind: 'done'; ok: boolean }
  | { kind: 'error'; message: string };

/** 'Check the instant wins': recomputes the commitment from the revealed salt and list in this browser. */
function RevealCheck({ commitment, reveal }: { commitment: string; reveal: InstantWinReveal }) {
  const [check, setCheck] = useState<Check>({ kind: 'idle' });
  const run = async () => {
    if (!globalThis.crypto?.subtle) {
      setCheck({
        kind: 'error',
        message: NO_WEBCRYPTO,
      });
      return;
    }
    setCheck({ kind: 'running' });
    setCheck({ kind: 'done', ok: await verifyInstantWinReveal(commitment, reveal) });
  };
  return (
    <>
      <p>
        The secret salt is now revealed: <Hash>{reveal.salt}</Hash>
      </p>
      <div>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => void run()}
          disabled={check.kind === 'running'}
        >
          {check.kind === 'running' ? 'Checking…' : 'Check the instant wins'}
        </Button>
      </div>
      <div aria-live="polite">
        {check.kind === 'error' && <p role="alert">{check.message}</p>}
        {check.kind === 'done' && (
          <Summary $ok={check.ok} data-testid="instant-wins-verdict">
            {check.ok
              ? `✔ Passed: the ${reveal.list.length} revealed instant-win numbers match the commitment published before sales opened.`
              : '✘ Failed: the revealed list does not match the commitment. Please contact us.'}
          </Summary>
        )}
      </div>
    </>
  );
}

const stateOf = (w: PublicInstantWin) =>
  w.won
    ? `Won with ticket #${w.number} by ${w.winnerDisplayName ?? 'an entrant'}`
    : w.retired
      ? `Ticket #${w.number}: ${INSTANT_WIN_RETIRED}`
      : 'Still to be won';

/**
 * The competition's instant-win prizes (docs/draws.md#instant-wins): won ones with their number
 * and winner, live; unwon ones never with a number. The commitment, and after the close the check.
 */
export function InstantWinsPanel({
  competitionId,
  instantWins,
  commitment,
  reveal,
}: {
  competitionId: number;
  instantWins: readonly PublicInstantWin[];
  commitment: string | null;
  reveal: InstantWinReveal | undefined;
}) {
  const list = useLiveInstantWins(competitionId, instantWins);
  const won = list.filter((w) => w.won).length;
  // A phone shows one line a prize ('£5 site credit ×20, 18 left'), not a card a number; the
  // server renders the full list (it knows no screen) and a phone groups it once hydrated.
  const phone = useMediaQuery(PHONE);
  return (
    <Panel aria-labelledby="instant-wins-title" data-testid="instant-wins">
      <h2 id="instant-wins-title">Instant wins</h2>
      <p>
        Some ticket numbers win a prize the moment they are bought, on top of the main draw. {won} of{' '}
        {list.length} won so far.
      </p>
      {phone ? (
        <Prizes aria-label="Instant-win prizes">
          {groupInstantWins(list).map((g) => (
            <li key={`${g.kind}:${g.title}`} data-won={g.left === 0} data-testid="instant-win-group">
              <span className="title">{groupLine(g)}</span>
              {g.won.length > 0 && (
                <span className="state">
                  Won: {g.won.map((w) => `#${w.number} by ${w.winnerDisplayName ?? 'an entrant'}`).join(', ')}
                </span>
              )}
            </li>
          ))}
        </Prizes>
      ) : (
        <Prizes aria-label="Instant-win prizes">
          {list.map((w) => (
            <li key={w.id} data-won={w.won} data-retired={w.retired ?? false} data-testid="instant-win">
              <span className="title">{w.title}</span>
              <span className="state">{stateOf(w)}</span>
            </li>
          ))}
        </Prizes>
      )}
      {commitment && (
        <>
          <p>
            Instant-win commitment (SHA-256 of the secret list and salt, fixed before sales opened):{' '}
            <Hash data-testid="instant-win-commitment">{commitment}</Hash>
          </p>
          {reveal ? (
            <RevealCheck commitment={commitment} reveal={reveal} />
          ) : (
            <p>
              The winning numbers and the salt are revealed when the competition closes, so anyone can check
              them.
            </p>
          )}
        </>
      )}
    </Panel>
  );
}
