import { useMemo, useState } from 'react';
import styled from 'styled-components';
import type { PublicCompetition } from '../../../../contract/competitions';
import { formatClockSeconds, formatUkDateTime } from '../../../../contract/londonTime';
import { serverNow } from '../../../live/clock';
import { Countdown } from '../../competitions/Countdown';
import { useCountdown } from '../../competitions/useCountdown';
import { Button } from '../../ui/Button';
import type { PublishedDraw } from '../verifyDraw';
import { RevealSteps } from './RevealSteps';
import { revealSteps } from './revealSteps';
import { useDrawChecks } from './useDrawChecks';
import { REVEAL_LEAD_MS, useServerSchedule } from './useServerSchedule';

// The draw room's stages (docs/product.md#live-draw-room): open, entries final and waiting for the
// beacon round, the reveal, and the recorded draw with its replay.

export const Stage = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  h2 { margin: 0; font-size: var(--stage-size, 1.5rem); }
  p { margin: 0; }
  .big { font-size: var(--big-size, 2rem); font-weight: 700; font-variant-numeric: tabular-nums; }
`;

/** Before the close: the countdown to it and the entries, live. */
export function OpenStage({
  competition,
  ticketsSold,
}: {
  competition: PublicCompetition;
  ticketsSold: number;
}) {
  return (
    <Stage data-testid="draw-room-open">
      <h2>The draw follows the close</h2>
      <p>Entries close on {formatUkDateTime(competition.endDate)}.</p>
      <Countdown endDate={competition.endDate} size="lg" />
      <p className="big" data-testid="draw-room-entries">
        {ticketsSold.toLocaleString('en-GB')} {ticketsSold === 1 ? 'ticket' : 'tickets'} sold
      </p>
    </Stage>
  );
}

/** The entries are final: the round the draw waits for, and the seconds until it, on the server clock. */
export function WaitingStage({ round, expectedAt }: { round: number; expectedAt: string }) {
  const { minutes, seconds, hours, days, done } = useCountdown(expectedAt);
  const left = ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
  return (
    <Stage data-testid="draw-room-waiting">
      <h2>
        Waiting for drand round {round.toLocaleString('en-GB')}, published at {formatClockSeconds(expectedAt)}
      </h2>
      <p className="big" role="timer">
        {done ? 'Any moment now…' : `${left.toLocaleString('en-GB')} s`}
      </p>
      <p>The entries are final. No one, us included, knows the round’s randomness before it is published.</p>
    </Stage>
  );
}

/** What this browser checks, from the competition as published after the draw. */
function publishedDrawOf(c: PublicCompetition): PublishedDraw | null {
  if (!c.draw) return null;
  return {
    drawCommitment: c.drawCommitment,
    seed: c.draw.seed,
    entriesHash: c.draw.entriesHash,
    winningNumber: c.draw.winningNumber,
    version: c.draw.version,
    beacon: c.drawBeacon ?? null,
    prizes: c.draw.prizes,
    prizeCount: c.prizes?.length ?? 1,
  };
}

/**
 * The reveal: each step at a set time after the server's draw time, on the server clock (every
 * viewer in the same second), shown whole once that is past, and replayed on request.
 */
export function RevealStage({ competition }: { competition: PublicCompetition }) {
  const draw = competition.draw!;
  // Checked again only when the draw or its round changes, not at every edit of the competition.
  const key = `${competition.draw?.seed}:${competition.drawBeacon?.signature}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the draw and its round (above)
  const published = useMemo(() => publishedDrawOf(competition), [key]);
  const checks = useDrawChecks(competition.id, published);
  const steps = useMemo(
    () => revealSteps(draw, competition.drawBeacon ?? null, competition.drawCommitment),
    [draw, competition.drawBeacon, competition.drawCommitment],
  );
  // Timed from the server's draw time: a viewer who arrives mid-reveal joins it at the same step,
  // and a draw long past shows whole.
  const [replayFrom, setReplayFrom] = useState<number | null>(null);
  const anchor = replayFrom ?? Date.parse(draw.drawnAt) + REVEAL_LEAD_MS;
  const shown = useServerSchedule(anchor, steps.length);
  const finished = shown >= steps.length;
  return (
    <Stage data-testid="draw-room-reveal">
      <h2>{finished ? 'The draw' : 'The draw is happening now'}</h2>
      {checks.kind === 'error' && <p role="alert">{checks.message}</p>}
      <RevealSteps
        steps={steps}
        shown={shown}
        checks={checks.kind === 'done' ? checks.checks : null}
        totalTickets={competition.totalTickets}
      />
      {finished && (
        <div>
          <Button type="button" $variant="secondary" onClick={() => setReplayFrom(serverNow() + 500)}>
            Replay the reveal
          </Button>
        </div>
      )}
    </Stage>
  );
}
