import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicCompetition } from '../../contract/competitions';
import { formatClock } from '../../contract/londonTime';
import { LaunchQueuePanel } from '../../web/components/admin/LaunchQueuePanel';
import { LaunchQueue } from '../../web/components/competitions/LaunchQueue';
import { startRealtime } from '../../web/live/socket';
import { jsonResponse, stubApi } from './fakeApi';
import { push } from './fakeSocket';
import { renderWithTheme } from './render';

// A queued launch on the page (docs/draws.md#launch-queue): 'Join the queue' only when clicked, the
// live place from `queue:position`, then 'You're in' with the buying controls; the admin's panel
// follows `admin:queue`.

vi.mock('socket.io-client', () => import('./fakeSocket'));

const MINUTE = 60_000;
const competition = (id: number, startsInMs: number) =>
  ({
    id,
    title: 'Launch Prize',
    status: 'active',
    launchQueue: true,
    queueDrained: false,
    startsAt: new Date(Date.now() + startsInMs).toISOString(),
  }) as PublicCompetition & { startsAt: string };

const page = (c: PublicCompetition & { startsAt: string }) =>
  renderWithTheme(
    <LaunchQueue competition={c} beforeWindow={<p>Opens later</p>}>
      <p>Buying controls</p>
    </LaunchQueue>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the queue on the competition page', () => {
  it('shows the opening before the joining window', () => {
    page(competition(71, 60 * MINUTE));
    expect(screen.getByText('Opens later')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Join the queue' })).toBeNull();
  });

  it('joins only on the click, then shows the live place and the admission', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'POST' && path === '/api/competitions/72/queue'
        ? jsonResponse(200, { status: 'waiting', entryId: 5, shuffleAt: new Date().toISOString() })
        : undefined,
    );
    await startRealtime();
    page(competition(72, 5 * MINUTE));
    const queued = () => fetchMock.mock.calls.filter(([path]) => String(path).endsWith('/queue'));
    expect(queued()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Join the queue' }));
    expect((await screen.findByTestId('queue-waiting')).textContent).toContain("You're in the queue.");
    expect(queued()).toHaveLength(1);
    expect(screen.queryByText('Buying controls')).toBeNull();

    act(() => push('queue:position', { competitionId: 72, position: 12, ahead: 11, etaSeconds: 60 }));
    expect(screen.getByTestId('queue-position').textContent).toBe(
      "You're number 12 in the queue, about 1 minute",
    );
    act(() => push('queue:position', { competitionId: 99, position: 1, ahead: 0, etaSeconds: 0 }));
    expect(screen.getByTestId('queue-position').textContent).toContain('number 12');

    const expiresAt = new Date(Date.now() + 10 * MINUTE).toISOString();
    act(() => push('queue:admitted', { competitionId: 72, expiresAt }));
    expect(screen.getByTestId('queue-admitted').textContent).toBe(
      `You're in: hold your numbers before ${formatClock(expiresAt)}`,
    );
    expect(screen.getByText('Buying controls')).toBeTruthy();
  });

  it('says why a join was refused', async () => {
    stubApi((method, path) =>
      method === 'POST' && path === '/api/competitions/73/queue'
        ? jsonResponse(429, {
            code: 'rate_limited',
            message:
              'Too many places in this queue come from your network. Please try again from another connection.',
          })
        : undefined,
    );
    page(competition(73, 5 * MINUTE));
    fireEvent.click(screen.getByRole('button', { name: 'Join the queue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many places in this queue');
  });

  it('is the buying controls once the queue is over', () => {
    page({ ...competition(74, -MINUTE), queueDrained: true });
    expect(screen.getByText('Buying controls')).toBeTruthy();
  });
});

describe("the admin's queue panel", () => {
  it('reads the queue, then follows admin:queue', async () => {
    const view = { competitionId: 75, waiting: 40, admitted: 10, admitPerSecond: 20, holdsPerSecond: 3 };
    stubApi((method, path) =>
      method === 'GET' && path === '/api/admin/competitions/75/queue' ? jsonResponse(200, view) : undefined,
    );
    await startRealtime();
    renderWithTheme(<LaunchQueuePanel competitionId={75} />);
    expect((await screen.findByTestId('queue-waiting-count')).textContent).toBe('40');
    act(() => push('admin:queue', { ...view, waiting: 20, admitted: 30 }));
    expect(screen.getByTestId('queue-waiting-count').textContent).toBe('20');
    act(() => push('admin:queue', { ...view, competitionId: 76, waiting: 1 }));
    expect(screen.getByTestId('queue-waiting-count').textContent).toBe('20');
    expect(screen.getByTestId('launch-queue-panel').textContent).toContain('20 a second');
  });
});
