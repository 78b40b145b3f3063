import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CartItemView } from '../../contract/cart';
import type { UserEntryView } from '../../contract/checkout';
import type { PublicCompetition } from '../../contract/competitions';
import { formatUkDateTime } from '../../contract/londonTime';
import { CartLine, CHOSEN_NUMBERS_HINT } from '../../web/components/cart/CartLine';
import { CompetitionCard } from '../../web/components/competitions/CompetitionCard';
import { arrangeCompetitions } from '../../web/components/competitions/listOptions';
import { PrizeDetails } from '../../web/components/competitions/PrizeDetails';
import { CartMenu } from '../../web/components/layout/CartMenu';
import MyEntriesPage from '../../web/pages/account/MyEntriesPage';
import { useAuth } from '../../web/stores/auth';
import { useCart } from '../../web/stores/cart';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// Issue 22, 'Information a customer expects': each point as the customer sees it.

vi.mock('socket.io-client', () => import('./fakeSocket'));

const DAY = 86_400_000;
// 20:00 in London on a winter date is 20:00 UTC; in summer it is 19:00 UTC.
const WINTER_DRAW = '2026-11-29T20:00:00.000Z';
const SUMMER_DRAW = '2026-07-30T19:00:00.000Z';

const competition = (over: Partial<PublicCompetition> = {}): PublicCompetition => ({
  id: 1,
  title: 'Garden Hot Tub',
  description: 'A hot tub',
  image: null,
  createdAt: new Date(Date.now() - DAY).toISOString(),
  endDate: WINTER_DRAW,
  ticketPrice: 2.49,
  ticketsSold: 7,
  totalTickets: 20,
  autoWin: false,
  status: 'active',
  features: [],
  details: {},
  category: 'home',
  cashAlternative: null,
  maxTicketsPerUser: 100,
  drawCommitment: 'ab',
  drawBeacon: null,
  ...over,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('closing times', () => {
  it('read as a date and a time in UK time, whatever the season', () => {
    expect(formatUkDateTime(WINTER_DRAW)).toBe('29 November 2026 at 20:00 (UK time)');
    expect(formatUkDateTime(SUMMER_DRAW)).toBe('30 July 2026 at 20:00 (UK time)');
  });

  it('a live-draw card shows its draw date and time', () => {
    renderWithTheme(<CompetitionCard competition={competition()} />);
    expect(screen.getByTestId('draw-time').textContent).toBe('Draw 29 November 2026 at 20:00 (UK time)');
  });
});

describe('auto-win competitions', () => {
  it('show the tickets left, a progress bar and the closing time on the card', () => {
    renderWithTheme(<CompetitionCard competition={competition({ autoWin: true })} />);
    const panel = screen.getByTestId('auto-win-progress');
    expect(within(panel).getByTestId('tickets-left').textContent).toBe(
      '13 of 20 tickets left: drawn the moment the last one sells',
    );
    const bar = screen.getByRole('progressbar', { name: 'Tickets sold' });
    expect(bar.getAttribute('aria-valuenow')).toBe('7');
    expect(bar.getAttribute('aria-valuemax')).toBe('20');
    expect(panel.textContent).toContain('Closes 29 November 2026 at 20:00 (UK time) if not sold out');
    expect(screen.queryByRole('timer')).toBeNull();
  });
});

describe('prize details', () => {
  it("list the admin's product name and features under 'Prize details'", () => {
    renderWithTheme(
      <PrizeDetails
        productName="Lay-Z-Spa Hot Tub"
        features={[
          'Paid by bank transfer within 24 hours',
          'Drawn live on Facebook',
          ' ',
          'Cash alternative £4,000',
        ]}
      />,
    );
    const section = screen.getByRole('region', { name: 'Prize details' });
    expect(section.textContent).toContain('Prize: Lay-Z-Spa Hot Tub');
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Paid by bank transfer within 24 hours', 'Drawn live on Facebook', 'Cash alternative £4,000']);
  });

  it('leave the section out when the admin entered none', () => {
    renderWithTheme(<PrizeDetails features={[]} />);
    expect(screen.queryByRole('region', { name: 'Prize details' })).toBeNull();
  });
});

describe('the competition lists', () => {
  it("sort by 'Ending soon' and filter by draw type", () => {
    const list = [
      competition({ id: 1, endDate: '2026-12-20T20:00:00Z', ticketPrice: 1 }),
      competition({ id: 2, endDate: '2026-12-01T20:00:00Z', autoWin: true, ticketPrice: 3 }),
      competition({ id: 3, endDate: '2026-12-10T20:00:00Z', ticketPrice: 0.5 }),
    ];
    const ids = (l: PublicCompetition[]) => l.map((c) => c.id);
    expect(ids(arrangeCompetitions(list, 'newest', 'all'))).toEqual([1, 2, 3]);
    expect(ids(arrangeCompetitions(list, 'ending-soon', 'all'))).toEqual([2, 3, 1]);
    expect(ids(arrangeCompetitions(list, 'lowest-price', 'all'))).toEqual([3, 1, 2]);
    expect(ids(arrangeCompetitions(list, 'ending-soon', 'live-draw'))).toEqual([3, 1]);
    expect(ids(arrangeCompetitions(list, 'newest', 'auto-win'))).toEqual([2]);
  });
});

const cartItem = (over: Partial<CartItemView>): CartItemView =>
  ({
    id: 1,
    competitionId: 1,
    quantity: 3,
    selectedNumbers: [],
    heldNumbers: [4, 8, 9],
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    competition: { id: 1, title: 'Garden Hot Tub', image: null, ticketPrice: 2.49, endDate: WINTER_DRAW },
    ...over,
  }) as CartItemView;

describe('the cart', () => {
  it('badge counts tickets, not lines, and says so to screen readers', () => {
    useCart.setState({ items: [cartItem({}), cartItem({ id: 2, quantity: 2, heldNumbers: [1, 2] })] });
    renderWithTheme(<CartMenu />);
    expect(screen.getByTestId('cart-count').textContent).toBe('5');
    expect(screen.getByRole('button', { name: 'Cart, 5 tickets' })).toBeDefined();
    cleanup();
    useCart.setState({ items: [] });
    renderWithTheme(<CartMenu />);
    expect(screen.getByRole('button', { name: 'Cart, empty' })).toBeDefined();
  });

  it('a hand-picked line says why its quantity cannot change', () => {
    const picked = cartItem({ selectedNumbers: [4, 8, 9] });
    renderWithTheme(
      <table>
        <tbody>
          <CartLine item={picked} />
        </tbody>
      </table>,
    );
    const more = screen.getByRole('button', { name: 'More tickets for Garden Hot Tub' });
    expect(more).toHaveProperty('disabled', true);
    const hint = document.getElementById(more.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toBe(CHOSEN_NUMBERS_HINT);
    expect(screen.getByText(/Draw: 29 November 2026 at 20:00 \(UK time\)/)).toBeDefined();
  });

  it('a Lucky Dip line has no such hint', () => {
    renderWithTheme(
      <table>
        <tbody>
          <CartLine item={cartItem({})} />
        </tbody>
      </table>,
    );
    expect(screen.queryByTestId('fixed-quantity-hint')).toBeNull();
  });
});

const entry = (
  competitionId: number,
  orderId: number,
  numbers: number[],
  c: Partial<UserEntryView['competition']>,
): UserEntryView => ({
  id: orderId * 10 + competitionId,
  userId: 7,
  competitionId,
  orderId,
  ticketNumbers: numbers,
  purchasedAt: '2026-11-23T10:00:00.000Z',
  competition: {
    id: competitionId,
    image: null,
    title: `Prize ${competitionId}`,
    description: '',
    ticketPrice: 1,
    endDate: new Date(Date.now() + 3 * DAY).toISOString(),
    autoWin: false,
    status: 'active',
    draw: null,
    ...c,
  },
});

describe('My Entries', () => {
  it('gives each entry its status and draw date, and View Results only after the draw', async () => {
    const drawnAt = '2026-11-20T20:05:00.000Z';
    stubApi((_m, path) =>
      path === '/api/user-entries'
        ? jsonResponse(200, [
            entry(1, 1623, [7, 12], { endDate: WINTER_DRAW }),
            entry(2, 1624, [3], { status: 'ended', endDate: new Date(Date.now() - 1000).toISOString() }),
            entry(3, 1625, [5], { status: 'ended', draw: { winningNumber: 9, drawnAt } }),
            entry(4, 1626, [15, 16], { status: 'ended', draw: { winningNumber: 16, drawnAt } }),
          ])
        : undefined,
    );
    useAuth.setState({ user: { id: 7, username: 'pat', role: 'user' } as never, status: 'ready' });
    renderWithTheme(<MyEntriesPage />);
    const groups = await screen.findAllByTestId('entry-group');
    const byTitle = (t: string) => groups.find((g) => g.textContent?.includes(t))!;
    const status = (t: string) => byTitle(t).querySelector('[data-status]')?.getAttribute('data-status');
    expect(['Prize 1', 'Prize 2', 'Prize 3', 'Prize 4'].map(status)).toEqual([
      'open',
      'drawing',
      'drawn',
      'won',
    ]);

    const open = byTitle('Prize 1');
    expect(open.textContent).toContain('Draw on 29 November 2026 at 20:00 (UK time)');
    expect(within(open).getByRole('timer')).toBeDefined();
    expect(within(open).queryByRole('link', { name: 'View Results' })).toBeNull();
    expect(within(byTitle('Prize 2')).queryByRole('link', { name: 'View Results' })).toBeNull();
    expect(within(byTitle('Prize 3')).getByRole('link', { name: 'View Results' }).getAttribute('href')).toBe(
      '/competition/3',
    );
    expect(byTitle('Prize 4').textContent).toContain('★ You won!');
    expect(byTitle('Prize 4').textContent).toContain('Drawn on 20 November 2026 at 20:05 (UK time)');

    // The confirmation's order reference and an en-GB date.
    expect(within(open).getByTestId('entry-order').textContent).toBe('Order ORD-0000001623');
    expect(open.textContent).toContain('23 November 2026');
    useAuth.setState({ user: null, status: 'loading' });
  });
});
