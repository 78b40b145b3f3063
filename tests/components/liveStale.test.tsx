import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeBitmap } from '../../contract/bitmap';
import type { CompetitionSnapshot } from '../../contract/realtime';
import { ReconnectingBanner } from '../../web/components/layout/ReconnectingBanner';
import { numberState, useLiveCompetitions, watchCompetition } from '../../web/live/competitionStore';
import { startConnectionWatch, useConnection } from '../../web/live/connection';
import { startFakeRealtime } from './fakeApi';
import { fakeSocket, push } from './fakeSocket';
import { renderWithTheme } from './render';

vi.mock('socket.io-client', () => import('./fakeSocket'));

// Issue 39 §6: a dropped socket says so, and the numbers it showed are marked as possibly out of
// date (never cleared to Available) until the fresh snapshot after the reconnect replaces them.

const COMPETITION = 8;
const TOTAL = 16;

const snapshot = (version: number, reserved: number[]): CompetitionSnapshot => ({
  competitionId: COMPETITION,
  version,
  totalTickets: TOTAL,
  ticketsSold: 1,
  status: 'active',
  endDate: new Date(Date.now() + 86_400_000).toISOString(),
  autoWin: false,
  sold: encodeBitmap(TOTAL, [3]),
  reserved: encodeBitmap(TOTAL, reserved),
  mine: [],
  owned: [],
  serverTime: new Date().toISOString(),
});

const live = () => useLiveCompetitions.getState().byId[COMPETITION];

beforeAll(async () => {
  startConnectionWatch();
  await startFakeRealtime();
});
afterEach(cleanup);

describe('a dropped connection', () => {
  it('marks the grid stale and shows Reconnecting… until the snapshot after the reconnect is in', async () => {
    fakeSocket.snapshot = snapshot(1, []);
    const stop = watchCompetition(COMPETITION);
    push('connect');
    await vi.waitFor(() => expect(live()?.version).toBe(1));
    expect(live()?.stale).toBe(false);
    renderWithTheme(<ReconnectingBanner />);

    push('disconnect');
    expect(useConnection.getState().dropped).toBe(true);
    await vi.waitFor(() => expect(live()?.stale).toBe(true));
    // What it showed stays on screen, marked: number 3 is still sold, not Available.
    expect(numberState(live()!, 3)).toBe('sold');
    expect(await screen.findByTestId('reconnecting-banner', {}, { timeout: 3000 })).toHaveProperty(
      'textContent',
      expect.stringMatching(/^Reconnecting…/),
    );

    // Meanwhile number 5 was taken; the reconnect's fresh snapshot shows it, and clears the mark.
    const watchesBefore = fakeSocket.watches;
    fakeSocket.snapshot = snapshot(4, [5]);
    push('connect');
    await vi.waitFor(() => expect(live()?.version).toBe(4));
    expect(fakeSocket.watches).toBe(watchesBefore + 1);
    expect(live()?.stale).toBe(false);
    expect(numberState(live()!, 5)).toBe('reserved');
    expect(useConnection.getState().dropped).toBe(false);
    await vi.waitFor(() => expect(screen.queryByTestId('reconnecting-banner')).toBeNull());
    stop();
  });
});
