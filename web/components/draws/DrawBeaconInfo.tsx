import styled from 'styled-components';
import { type DrawBeacon, isIndependentBeacon } from '../../../contract/beacon';
import { formatUkDateTime } from '../../../contract/londonTime';
import { useCountdown } from '../competitions/useCountdown';
import { DrawInfoBox } from './DrawInfoBox';
import { Hash } from './Hash';

const TestLabel = styled.span`
  justify-self: start;
  padding: 2px ${({ theme }) => theme.space.xs};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.warningBg};
  color: ${({ theme }) => theme.colors.text};
  font-weight: 700;
`;

/** Seconds to the round, live on the server clock. */
function RoundCountdown({ dueAt }: { dueAt: string }) {
  const { days, hours, minutes, seconds, done } = useCountdown(dueAt);
  const total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
  return (
    <p role="timer" data-testid="beacon-countdown">
      {done ? (
        <strong>The round is due now: the draw follows as soon as it is out.</strong>
      ) : (
        <>
          Due in <strong>{total.toLocaleString('en-GB')} s</strong>: the draw follows it.
        </>
      )}
    </p>
  );
}

/**
 * The public randomness the draw uses (docs/draws.md "Version 2"): before the close, the rule; at
 * the close, the round fixed before it exists, with a live countdown; once drawn, its randomness.
 */
export function DrawBeaconInfo({ beacon, drawn }: { beacon: DrawBeacon | null; drawn: boolean }) {
  const independent = beacon ? isIndependentBeacon(beacon.chain) : true;
  return (
    <DrawInfoBox aria-labelledby="draw-beacon-title" data-testid="draw-beacon">
      <h2 id="draw-beacon-title">Draw beacon</h2>
      {!independent && <TestLabel data-testid="test-beacon-label">test beacon: not independent</TestLabel>}
      {!beacon ? (
        <p>
          {drawn
            ? 'This draw was made before draws used a public randomness beacon (rule version 1).'
            : "When sales close, this draw is tied to a future round of the drand randomness beacon (the League of Entropy's quicknet), published here before the round exists, so nobody, us included, can know the winner in advance."}
        </p>
      ) : (
        <>
          <p>
            {independent ? 'drand quicknet' : 'Local test beacon'} round{' '}
            <strong data-testid="beacon-round">{beacon.round}</strong>
            {beacon.randomness
              ? ', whose randomness picked the winner with the seed:'
              : ', fixed when sales closed.'}
          </p>
          {beacon.entriesFinalAt && (
            <p data-testid="entries-final-at">
              Entries final at{' '}
              <time dateTime={beacon.entriesFinalAt}>{formatUkDateTime(beacon.entriesFinalAt)}</time> (
              {beacon.entriesFinalAt}): the draw uses the first round produced at least{' '}
              {beacon.delaySeconds ?? '?'} s later.
            </p>
          )}
          {beacon.randomness ? (
            <Hash data-testid="beacon-randomness">{beacon.randomness}</Hash>
          ) : (
            <RoundCountdown dueAt={beacon.dueAt} />
          )}
        </>
      )}
    </DrawInfoBox>
  );
}
