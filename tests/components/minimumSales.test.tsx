import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicCompetition } from '../../contract/competitions';
import type { BulkRefundJobView } from '../../contract/minimumSales';
import { minimumSalesRule } from '../../contract/minimumSales';
import { RefundProgress } from '../../web/components/admin/CancelCompetition';
import { MinimumSalesNotice } from '../../web/components/competitions/LaunchState';
import { OddsAndFacts } from '../../web/components/competitions/OddsAndFacts';
import { useBulkRefundJob } from '../../web/live/adminJobs';
import { startRealtime } from '../../web/live/socket';
import { jsonResponse, stubApi } from './fakeApi';
import { push } from './fakeSocket';
import { renderWithTheme } from './render';

// Minimum sales and cancellation as a customer and an admin see them
// (docs/product.md#minimum-sales-and-cancellation): the rule in the odds panel, the extended and
// cancelled banners, and the refund's progress bar following `admin:job`.

vi.mock('socket.io-client', () => import('./fakeSocket'));

const competition = (over: Partial<PublicCompetition> = {}): PublicCompetition => ({
  id: 4,
  title: 'Garden Hot Tub',
  description: 'A hot tub',
  image: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  endDate: '2026-12-05T20:00:00.000Z',
  ticketPrice: 2,
  ticketsSold: 120,
  totalTickets: 1000,
  autoWin: false,
  status: 'active',
  features: [],
  details: {},
  category: 'home',
  cashAlternative: null,
  maxTicketsPerUser: 100,
  drawCommitment: 'ab',
  drawBeacon: null,
  minTicketsSold: 500,
  extendByDays: 7,
  maxExtensions: 1,
  extensionsUsed: 0,
  cancellationReason: null,
  ...over,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the rule', () => {
  it('is stated in the odds panel, and absent without a minimum', () => {
    renderWithTheme(<OddsAndFacts competition={competition()} ticketsSold={120} draw={null} />);
    expect(screen.getByTestId('fact-minimum').textContent).toBe(
      'This competition needs at least 500 tickets sold by its end date. If fewer are sold, the end date moves on by 7 days, up to 1 time; after that, it is cancelled and every entry is refunded.',
    );
    cleanup();
    renderWithTheme(
      <OddsAndFacts competition={competition({ minTicketsSold: null })} ticketsSold={1} draw={null} />,
    );
    expect(screen.queryByTestId('fact-minimum')).toBeNull();
  });

  it('without extensions goes straight to the refund', () => {
    expect(minimumSalesRule({ minTicketsSold: 1500, maxExtensions: 0 })).toBe(
      'This competition needs at least 1,500 tickets sold by its end date. If fewer are sold, it is cancelled and every entry is refunded.',
    );
  });
});

describe('the banners', () => {
  it('an extended competition says to when, and why', () => {
    renderWithTheme(<MinimumSalesNotice competition={competition({ extensionsUsed: 1 })} />);
    expect(screen.getByTestId('extended-notice').textContent).toBe(
      'Extended to 5 December at 20:00: fewer than 500 tickets were sold',
    );
  });

  it('a cancelled one gives the reason and says every entry was refunded', () => {
    renderWithTheme(
      <MinimumSalesNotice
        competition={competition({
          status: 'cancelled',
          cancellationReason: 'the minimum of 500 entries was not reached',
        })}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Cancelled: the minimum of 500 entries was not reached. Every entry has been refunded.',
    );
  });

  it('nothing for a competition on course', () => {
    const { container } = renderWithTheme(<MinimumSalesNotice competition={competition()} />);
    expect(container.textContent).toBe('');
  });
});

const job = (over: Partial<BulkRefundJobView> = {}): BulkRefundJobView => ({
  id: 9,
  competitionId: 4,
  status: 'running',
  done: 1,
  total: 4,
  failed: 0,
  notes: [],
  ...over,
});

function Progress({ jobId }: { jobId: number }) {
  return <RefundProgress job={useBulkRefundJob(jobId)} />;
}

describe("the refund's progress", () => {
  it('starts from the job as read, then follows admin:job pushes, never going back', async () => {
    stubApi((method, path) =>
      method === 'GET' && path === '/api/admin/jobs/9' ? jsonResponse(200, job()) : undefined,
    );
    renderWithTheme(<Progress jobId={9} />);
    await startRealtime();
    expect((await screen.findByTestId('refund-progress')).textContent).toContain('Refunding orders: 1 of 4');
    act(() => push('admin:job', job({ done: 3 })));
    expect(screen.getByTestId('refund-progress').textContent).toContain('Refunding orders: 3 of 4');
    act(() => push('admin:job', job({ done: 2 })));
    act(() => push('admin:job', job({ id: 10, done: 0 })));
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('3');
    act(() =>
      push(
        'admin:job',
        job({ status: 'failed', done: 3, failed: 1, notes: ['ORD-000012: Not sold on this order: 4.'] }),
      ),
    );
    expect(screen.getByTestId('refund-progress').textContent).toContain(
      'Finished: some orders need you: 4 of 4 (1 failed)',
    );
    expect(screen.getByRole('list', { name: 'To deal with by hand' }).textContent).toContain('ORD-000012');
  });
});
