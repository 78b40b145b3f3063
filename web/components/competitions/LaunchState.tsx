import styled from 'styled-components';
import type { PublicCompetition } from '../../../contract/competitions';
import { formatOpensShort } from '../../../contract/londonTime';
import { cancelledNotice, extendedNotice } from '../../../contract/minimumSales';
import type { LiveCompetition } from '../../live/competitionStore';
import { useIsOpen } from '../../live/openings';
import { PurchasePanel } from '../purchase/PurchasePanel';
import { Countdown } from './Countdown';

// Drafts and scheduled launches on the competition page (docs/product.md#drafts-and-scheduled-launches),
// and what the minimum-sales rule did to it (docs/product.md#minimum-sales-and-cancellation).

const Bar = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.warningBg};
  border: 1px solid ${({ theme }) => theme.colors.warning};
  font-weight: 700;
`;

const Opening = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 2px solid ${({ theme }) => theme.colors.brand};
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  p { margin: 0; }
`;

/** An admin's preview of a draft, at its real URL. */
export function DraftBar() {
  return (
    <Bar role="status" data-testid="draft-bar">
      Draft: only admins can see this
    </Bar>
  );
}

/**
 * A competition short of its minimum that was extended, or one cancelled and refunded
 * (docs/product.md#minimum-sales-and-cancellation); nothing otherwise.
 */
export function MinimumSalesNotice({ competition: c }: { competition: PublicCompetition }) {
  if (c.status === 'cancelled')
    return (
      <Bar role="status" data-testid="cancelled-notice">
        {cancelledNotice(c.cancellationReason ?? 'the competition was called off')}
      </Bar>
    );
  if (c.status === 'active' && c.extensionsUsed && c.minTicketsSold)
    return (
      <Bar role="status" data-testid="extended-notice">
        {extendedNotice(c.endDate, c.minTicketsSold)}
      </Bar>
    );
  return null;
}

/**
 * Where the buying controls go: a draft's note, a scheduled launch's countdown to its opening
 * (unlocked at the opening on every page at once), or the controls.
 */
export function BuyingState({
  competition,
  live,
  barSlot,
}: {
  competition: PublicCompetition;
  live: LiveCompetition | undefined;
  barSlot: HTMLElement | null;
}) {
  const open = useIsOpen(competition.id, competition.startsAt);
  if (competition.status === 'draft')
    return (
      <Opening data-testid="draft-buying">
        <p>Buying opens when this competition is published.</p>
      </Opening>
    );
  if (!open && competition.startsAt)
    return (
      <Opening data-testid="opens-soon" aria-live="polite">
        <h2>Opens {formatOpensShort(competition.startsAt)}</h2>
        <Countdown endDate={competition.startsAt} size="lg" />
        <p>The numbers are on show below: pick yours the moment it opens.</p>
      </Opening>
    );
  return <PurchasePanel competition={competition} live={live} barSlot={barSlot} />;
}
