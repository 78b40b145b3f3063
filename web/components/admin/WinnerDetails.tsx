import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { AdminWinner } from '../../../contract/draw';
import { formatDateTime } from '../../../contract/londonTime';
import { Button } from '../ui/Button';
import { ClaimFacts } from './ClaimFacts';
import { savePrizeDelivered, saveWinnerTown } from './prizeDelivery';
import { WinnerContact } from './WinnerContact';
import { WinnerStoryForm } from './WinnerStoryForm';

export const Facts = styled.dl`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr);
  gap: 4px ${({ theme }) => theme.space.md};
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  a { color: ${({ theme }) => theme.colors.info}; }
`;

const TownForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  input { min-height: 40px; padding: 0 ${({ theme }) => theme.space.sm}; }
`;

/** Who won, how to reach them (admins only), and the prize's delivery. */
export function WinnerDetails({ winner, onChanged }: { winner: AdminWinner; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [town, setTown] = useState(winner.winnerTown ?? '');
  const w = winner.winner;
  const saveTown = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const updated = await saveWinnerTown(winner, town);
    setBusy(false);
    if (updated) onChanged();
  };
  const toggle = async () => {
    setBusy(true);
    const updated = await savePrizeDelivered(winner, !winner.prizeDeliveredAt);
    setBusy(false);
    if (updated) onChanged();
  };
  return (
    <div data-testid="admin-winner">
      <Facts>
        <dt>Winning number</dt>
        <dd>{winner.winningNumber}</dd>
        <WinnerContact {...winner} />
        <ClaimFacts claim={winner.claim} />
        <dt>Drawn</dt>
        <dd>
          {formatDateTime(winner.drawnAt)} by{' '}
          {winner.drawnBy === 'auto' ? 'the automatic draw' : winner.drawnBy}
        </dd>
        <dt>Winner e-mailed</dt>
        <dd>{winner.winnerNotifiedAt ? formatDateTime(winner.winnerNotifiedAt) : 'Not yet'}</dd>
        {w.userId !== null && (
          <>
            <dt>Age verified</dt>
            <dd data-testid="winner-age-verified">
              {w.ageVerifiedAt ? (
                formatDateTime(w.ageVerifiedAt)
              ) : (
                <>
                  Not yet: check an identity document, then <Link href="/admin/users">mark it in Users</Link>
                </>
              )}
            </dd>
          </>
        )}
        <dt>Prize delivered</dt>
        <dd data-testid="prize-delivered">
          {winner.prizeDeliveredAt ? formatDateTime(winner.prizeDeliveredAt) : 'Not yet'}
        </dd>
      </Facts>
      <p>
        <Button
          type="button"
          $variant={winner.prizeDeliveredAt ? 'ghost' : 'secondary'}
          onClick={() => void toggle()}
          disabled={busy}
        >
          {winner.prizeDeliveredAt ? 'Mark not delivered' : 'Mark prize delivered'}
        </Button>
      </p>
      {/* Published with the winner's name on the competition page. */}
      <TownForm onSubmit={(e) => void saveTown(e)}>
        <label htmlFor="winner-town">Winner's town (published)</label>
        <input id="winner-town" value={town} maxLength={100} onChange={(e) => setTown(e.target.value)} />
        <Button
          type="submit"
          $variant="secondary"
          disabled={busy || town.trim() === (winner.winnerTown ?? '')}
        >
          Save town
        </Button>
      </TownForm>
      <WinnerStoryForm
        competitionId={winner.competitionId}
        prize={winner.prizes?.[0] ?? { position: 1, story: null }}
        label={(winner.prizes?.length ?? 1) > 1 ? '1st prize' : 'Winner'}
        onChanged={onChanged}
      />
    </div>
  );
}
