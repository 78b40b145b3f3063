import styled from 'styled-components';
import type { DrawBeacon } from '../../../contract/beacon';
import type { PublicDraw } from '../../../contract/draw';
import { formatLongDate } from '../../../contract/londonTime';
import { ordinal } from '../../../contract/prizes';
import { media } from '../../theme/theme';
import { Card } from '../ui/Page';
import { Hash } from './Hash';
import { VerifyDrawPanel } from './VerifyDrawPanel';

const Layout = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; }
  ${media.lg} { grid-template-columns: 1fr 1fr; align-items: start; }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 2px;
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  dd { margin: 0 0 ${({ theme }) => theme.space.xs}; font-weight: 600; min-width: 0; }
`;

/** What the draw revealed (seed, entries hash, result) and the in-browser verification. */
export function DrawDetails({
  competitionId,
  drawCommitment,
  draw,
  beacon,
  prizeCount = 1,
}: {
  competitionId: number;
  drawCommitment: string;
  draw: PublicDraw;
  beacon: DrawBeacon | null;
  /** How many main prizes the competition lists (docs/draws.md "Several prizes"). */
  prizeCount?: number;
}) {
  const several = (draw.prizes?.length ?? 1) > 1;
  return (
    <Layout aria-labelledby="draw-result-title" data-testid="draw-details">
      <div>
        <h2 id="draw-result-title">Draw result</h2>
        <Facts>
          <dt>Winning number</dt>
          <dd data-testid="draw-winning-number">{draw.winningNumber}</dd>
          <dt>Winner</dt>
          <dd>{draw.winnerName}</dd>
          {several && (
            <>
              <dt>Prizes, in draw order</dt>
              <dd>
                <ol data-testid="draw-prizes">
                  {draw.prizes?.map((p) => (
                    <li key={p.position} data-testid="draw-prize">
                      {ordinal(p.position)} prize, {p.title}: #{p.winningNumber}, {p.winnerName}
                    </li>
                  ))}
                </ol>
              </dd>
            </>
          )}
          <dt>Drawn on</dt>
          <dd>{formatLongDate(draw.drawnAt)}</dd>
          <dt>Seed (revealed at the draw)</dt>
          <dd>
            <Hash data-testid="draw-seed">{draw.seed}</Hash>
          </dd>
          <dt>Entries hash (SHA-256 of the sold numbers)</dt>
          <dd>
            <Hash data-testid="draw-entries-hash">{draw.entriesHash}</Hash>
          </dd>
          {draw.version === 2 && beacon?.randomness && (
            <>
              <dt>Beacon round {beacon.round} randomness</dt>
              <dd>
                <Hash>{beacon.randomness}</Hash>
              </dd>
              <dt>Its signature</dt>
              <dd>
                <Hash>{beacon.signature}</Hash>
              </dd>
            </>
          )}
        </Facts>
      </div>
      <VerifyDrawPanel
        competitionId={competitionId}
        draw={{
          drawCommitment,
          seed: draw.seed,
          entriesHash: draw.entriesHash,
          winningNumber: draw.winningNumber,
          version: draw.version,
          beacon,
          prizes: draw.prizes,
          prizeCount,
        }}
      />
    </Layout>
  );
}
