import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeBitmap, encodeBitmap } from '../../contract/bitmap';
import { EntriesGrid } from '../../web/components/competitions/EntriesGrid';
import { NumberSelector } from '../../web/components/purchase/NumberSelector';
import type { LiveCompetition } from '../../web/live/competitionStore';
import { renderWithTheme } from './render';

// Issue 22: your own numbers are marked as yours, apart from everyone else's 'Purchased', and
// every state carries a sign and words as well as a colour, with a key, on the grid and in the picker.

vi.mock('@tanstack/react-virtual', () => import('./allRowsVirtualizer'));

const TOTAL = 20;
// 7, 12 and 15 bought by this customer; 3 by someone else; 5 held by someone else; 9 in our cart.
const live = (): LiveCompetition => ({
  competitionId: 1,
  totalTickets: TOTAL,
  version: 1,
  ticketsSold: 4,
  status: 'active',
  sold: decodeBitmap(encodeBitmap(TOTAL, [3, 7, 12, 15])),
  reserved: decodeBitmap(encodeBitmap(TOTAL, [5, 9])),
  mine: new Set([9]),
  owned: new Set([7, 12, 15]),
  rev: 1,
  stale: false,
});

const cell = (root: HTMLElement, n: number) => root.querySelector<HTMLElement>(`[data-number="${n}"]`)!;
const sign = (el: HTMLElement) => el.querySelector('[data-sign]')?.textContent ?? '';

function expectStates(root: HTMLElement) {
  for (const n of [7, 12, 15]) {
    expect(cell(root, n).dataset.state).toBe('yours');
    expect(cell(root, n).textContent).toBe(`${n}★Ticket ${n}: Yours`);
  }
  expect(cell(root, 3).dataset.state).toBe('purchased');
  expect(cell(root, 3).textContent).toBe('3✕Ticket 3: Purchased');
  expect(cell(root, 5).dataset.state).toBe('reserved');
  expect(cell(root, 9).dataset.state).toBe('mine');
  // Each taken state has its own sign, hidden from screen readers, which read the words instead.
  const signs = [3, 5, 7, 9].map((n) => sign(cell(root, n)));
  expect(new Set(signs).size).toBe(4);
  expect(signs.every(Boolean)).toBe(true);
  expect(cell(root, 7).querySelector('[data-sign]')?.getAttribute('aria-hidden')).toBe('true');
}

describe('number states on the page grid and in the picker', () => {
  afterEach(cleanup);

  it('the page grid marks your numbers as yours and keys every state', () => {
    renderWithTheme(<EntriesGrid totalTickets={TOTAL} entries={[]} live={live()} />);
    const grid = screen.getByTestId('entries-grid');
    expectStates(grid);
    expect(cell(grid, 7).title).toBe('Ticket #7: Yours: you bought this number');
    const key = screen.getByRole('list', { name: 'Key to the number colours' });
    expect(
      within(key)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Available', '◔Reserved by someone else', '●In your cart', '✕Purchased', '★Yours']);
  });

  it('the picker marks your numbers as yours, cannot pick them, and has its own key', () => {
    renderWithTheme(
      <NumberSelector
        open
        onClose={() => undefined}
        title="Hot Tub"
        live={live()}
        quantity={1}
        onQuantityChange={() => undefined}
        selection={[1]}
        onSelectionChange={() => undefined}
        onConfirm={async () => undefined}
        perPersonCap={100}
        ticketPrice={199}
      />,
    );
    const grid = screen.getByTestId('selector-grid');
    expectStates(grid);
    expect(screen.getByRole('button', { name: 'Ticket 7: Yours' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Ticket 1: Selected' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const key = within(screen.getByTestId('number-selector')).getByRole('list', {
      name: 'Key to the number colours',
    });
    expect(
      within(key)
        .getAllByRole('listitem')
        .map((li) => li.dataset.legend),
    ).toEqual(['available', 'selected', 'mine', 'reserved', 'purchased', 'yours']);
  });
});
