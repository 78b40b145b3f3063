import styled from 'styled-components';
import type { PublicCompetition } from '../../../contract/competitions';
import type { PublicDraw } from '../../../contract/draw';
import { formatUkDateTime } from '../../../contract/londonTime';
import { minimumSalesRule } from '../../../contract/minimumSales';
import { formatPounds } from '../../../contract/money';

const Panel = styled.section`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.md};
  h2 { margin: 0 0 ${({ theme }) => theme.space.xs}; font-size: ${({ theme }) => theme.fontSizes.md}; color: ${({ theme }) => theme.colors.brand}; }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 4px ${({ theme }) => theme.space.md};
    margin: 0;
  }
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; }
  a { color: ${({ theme }) => theme.colors.brand}; }
`;

const count = (n: number) => n.toLocaleString('en-GB');

/**
 * The facts a player is owed before entering (docs/product.md#odds-and-facts): the odds (one entry
 * in at most every ticket), the per-person cap, any cash alternative, the draw date and the free
 * route; after the draw, how many entries there were and who won, with their town.
 */
export function OddsAndFacts({
  competition: c,
  ticketsSold,
  draw,
}: {
  competition: PublicCompetition;
  ticketsSold: number;
  draw: PublicDraw | null;
}) {
  return (
    <Panel aria-labelledby="odds-facts-title" data-testid="odds-facts">
      <h2 id="odds-facts-title">Odds and facts</h2>
      <dl>
        <dt>Odds</dt>
        <dd data-testid="fact-odds">1 in {count(c.totalTickets)} per entry at most</dd>
        <dt>Max per person</dt>
        <dd data-testid="fact-cap">{count(c.maxTicketsPerUser)} entries</dd>
        {c.cashAlternative !== null && (
          <>
            <dt>Cash alternative</dt>
            <dd data-testid="fact-cash">{formatPounds(c.cashAlternative)}</dd>
          </>
        )}
        <dt>Draw date</dt>
        <dd data-testid="fact-draw-date">
          {c.autoWin
            ? `When the last ticket sells, by ${formatUkDateTime(c.endDate)}`
            : formatUkDateTime(c.endDate)}
        </dd>
        {minimumSalesRule(c) && (
          <>
            <dt>Minimum</dt>
            <dd data-testid="fact-minimum">{minimumSalesRule(c)}</dd>
          </>
        )}
        <dt>Free entry</dt>
        <dd data-testid="fact-free-route">
          <a href="#free-entry">Enter for free by post</a>
        </dd>
        {draw && (
          <>
            <dt>Entries</dt>
            <dd data-testid="fact-entries">{count(ticketsSold)}</dd>
            <dt>Winner</dt>
            <dd data-testid="fact-winner">
              {draw.winnerTown ? `${draw.winnerName}, ${draw.winnerTown}` : draw.winnerName}
            </dd>
          </>
        )}
      </dl>
    </Panel>
  );
}
