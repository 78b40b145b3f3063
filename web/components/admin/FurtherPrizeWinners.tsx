import { useState } from 'react';
import type { AdminWinner } from '../../../contract/draw';
import { formatDateTime } from '../../../contract/londonTime';
import { ordinal } from '../../../contract/prizes';
import { Button } from '../ui/Button';
import { ClaimFacts } from './ClaimFacts';
import { savePrizePositionDelivered } from './prizeDelivery';
import { WinnerContact } from './WinnerContact';
import { Facts } from './WinnerDetails';
import { WinnerStoryForm } from './WinnerStoryForm';

/**
 * The 2nd and later main prizes of a draw (docs/draws.md "Several prizes"): each one's winner,
 * e-mail and delivery, marked on its own (the winner's age check applies per prize).
 */
export function FurtherPrizeWinners({ winner, onChanged }: { winner: AdminWinner; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const further = (winner.prizes ?? []).filter((p) => p.position > 1);
  if (!further.length) return null;
  const toggle = async (position: number, label: string, delivered: boolean) => {
    setBusy(true);
    const updated = await savePrizePositionDelivered(winner, position, label, delivered);
    setBusy(false);
    if (updated) onChanged();
  };
  return (
    <section aria-label="Further prizes" data-testid="further-prizes">
      {further.map((p) => {
        const label = `${ordinal(p.position)} prize`;
        const w = p.winner;
        return (
          <div key={p.position} data-testid="further-prize">
            <h3>
              {label}: {p.title}
            </h3>
            <Facts>
              <dt>Winning number</dt>
              <dd>{p.winningNumber}</dd>
              <WinnerContact {...p} />
              <ClaimFacts claim={p.claim} />
              <dt>Winner e-mailed</dt>
              <dd>{p.winnerNotifiedAt ? formatDateTime(p.winnerNotifiedAt) : 'Not yet'}</dd>
              {w.userId !== null && (
                <>
                  <dt>Age verified</dt>
                  <dd>{w.ageVerifiedAt ? formatDateTime(w.ageVerifiedAt) : 'Not yet'}</dd>
                </>
              )}
              <dt>Prize delivered</dt>
              <dd data-testid="further-prize-delivered">
                {p.prizeDeliveredAt ? formatDateTime(p.prizeDeliveredAt) : 'Not yet'}
              </dd>
            </Facts>
            <p>
              <Button
                type="button"
                $variant={p.prizeDeliveredAt ? 'ghost' : 'secondary'}
                onClick={() => void toggle(p.position, label, !p.prizeDeliveredAt)}
                disabled={busy}
              >
                {p.prizeDeliveredAt ? `Mark ${label} not delivered` : `Mark ${label} delivered`}
              </Button>
            </p>
            <WinnerStoryForm
              competitionId={winner.competitionId}
              prize={p}
              label={label}
              onChanged={onChanged}
            />
          </div>
        );
      })}
    </section>
  );
}
