import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeBitmap } from '../../contract/bitmap';
import type { CompetitionSnapshot } from '../../contract/realtime';
import { EntriesGrid } from '../../web/components/competitions/EntriesGrid';
import { NumberSelector } from '../../web/components/purchase/NumberSelector';
import { useLiveCompetition, useLiveCompetitions } from '../../web/live/competitionStore';
import { useToast } from '../../web/stores/toast';
import { startFakeRealtime } from './fakeApi';
import { fakeSocket, push } from './fakeSocket';
import { renderWithTheme } from './render';

// The grids re-render only the cells a stranger's hold or release changes, not the page holding
// the competition (issue 20's grid target); what the picker derives from every number (the Tab
// stop, the search results, a picked number someone takes) must still follow each change.

vi.mock('@tanstack/react-virtual', () => import('./allRowsVirtualizer'));

vi.mock('socket.io-client', () => import('./fakeSocket'));

const COMPETITION = 6;
const TOTAL = 40;

const snapshot = (): CompetitionSnapshot => ({
  competitionId: COMPETITION,
  version: 1,
  totalTickets: TOTAL,
  ticketsSold: 1,
  status: 'active',
  endDate: new Date(Date.now() + 86_400_000).toISOString(),
  autoWin: false,
  sold: encodeBitmap(TOTAL, [3]),
  reserved: encodeBitmap(TOTAL, []),
  mine: [],
  owned: [],
  serverTime: new Date().toISOString(),
});

fakeSocket.snapshot = snapshot();

let version = 1;
/** A stranger's hold or release, then the frame that publishes it. */
async function stranger(type: 'reserved' | 'released', numbers: number[]) {
  version++;
  push(`tickets:${type}`, { competitionId: COMPETITION, version, numbers });
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
}

let pageRenders = 0;

/** The competition page's part: holds the live state, with the picker open and the page grid. */
function Page({ initialSelection = [] }: { initialSelection?: number[] }) {
  pageRenders++;
  const live = useLiveCompetition(COMPETITION);
  const [selection, setSelection] = useState(initialSelection);
  return (
    <>
      <EntriesGrid totalTickets={TOTAL} entries={[]} live={live} />
      <NumberSelector
        open
        onClose={() => undefined}
        title="Hot Tub"
        live={live}
        quantity={3}
        onQuantityChange={() => undefined}
        selection={selection}
        onSelectionChange={setSelection}
        onConfirm={async () => undefined}
        perPersonCap={100}
        ticketPrice={199}
      />
    </>
  );
}

const picker = () => screen.getByTestId('selector-grid');
const cell = (root: HTMLElement, n: number) => root.querySelector<HTMLElement>(`[data-number="${n}"]`)!;

// The stores' listeners reach the (mocked) socket once it has loaded, as in the app.
beforeAll(startFakeRealtime);

describe('live grids under strangers’ holds', () => {
  afterEach(() => {
    cleanup();
    useLiveCompetitions.setState({ byId: {} });
    useToast.setState({ current: null });
    version = 1;
  });

  it("show a stranger's hold and release on both grids without re-rendering the page", async () => {
    renderWithTheme(<Page />);
    const page = screen.getByTestId('entries-grid');
    expect(cell(picker(), 5).dataset.state).toBe('available');
    const rendersBefore = pageRenders;
    await stranger('reserved', [5, 6]);
    for (const root of [picker(), page]) {
      expect(cell(root, 5).dataset.state).toBe('reserved');
      expect(cell(root, 6).dataset.state).toBe('reserved');
    }
    expect((cell(picker(), 5) as HTMLButtonElement).disabled).toBe(true);
    expect(cell(picker(), 5).title).toBe('Ticket #5: This number is temporarily reserved by another user');
    await stranger('released', [5]);
    expect(cell(picker(), 5).dataset.state).toBe('available');
    expect(cell(page, 5).dataset.state).toBe('available');
    expect(cell(page, 6).dataset.state).toBe('reserved');
    expect(pageRenders).toBe(rendersBefore);
  });

  it('moves the Tab stop off a number a stranger takes', async () => {
    renderWithTheme(<Page />);
    expect(cell(picker(), 1).tabIndex).toBe(0);
    await stranger('reserved', [1, 2]);
    expect(cell(picker(), 1).tabIndex).toBe(-1);
    expect(cell(picker(), 2).tabIndex).toBe(-1);
    // 3 was sold before: the next number that can be picked is 4.
    expect(cell(picker(), 4).tabIndex).toBe(0);
  });

  it('keeps the search results to numbers still free', async () => {
    renderWithTheme(<Page />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search numbers' }), { target: { value: '7' } });
    const results = () =>
      within(screen.getByRole('group', { name: 'Search results' }))
        .getAllByRole('button')
        .map((b) => b.textContent);
    expect(results()).toEqual(['7', '17', '27', '37']);
    await stranger('reserved', [17]);
    expect(results()).toEqual(['7', '27', '37']);
  });

  it('drops a picked number a stranger takes, and says so', async () => {
    renderWithTheme(<Page initialSelection={[8, 9]} />);
    await stranger('reserved', [9]);
    expect(screen.queryByRole('button', { name: 'Remove number 9' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove number 8' })).toBeDefined();
    expect(useToast.getState().current).toMatchObject({
      title: 'Number no longer available',
      description: 'Number 9 was just taken by another user.',
    });
  });
});
