import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NumberSelector } from '../../web/components/purchase/NumberSelector';
import type { LiveCompetition } from '../../web/live/competitionStore';
import { useToast } from '../../web/stores/toast';
import { renderWithTheme } from './render';

// Issue 15 point 4: the picker shows the per-person cap and refuses numbers over it (the server
// would refuse them anyway: tests/api/tickets/perPersonCap.test.ts).

vi.mock('@tanstack/react-virtual', () => import('./allRowsVirtualizer'));

const TOTAL = 40;

const live = (mine: number[]): LiveCompetition => ({
  competitionId: 1,
  totalTickets: TOTAL,
  version: 1,
  ticketsSold: 0,
  status: 'active',
  sold: new Uint8Array(Math.ceil(TOTAL / 8)),
  reserved: new Uint8Array(Math.ceil(TOTAL / 8)),
  mine: new Set(mine),
  owned: new Set(),
  rev: 1,
  stale: false,
});

function Picker({ mine, cap, quantity }: { mine: number[]; cap: number; quantity: number }) {
  const [selection, setSelection] = useState<number[]>([]);
  return (
    <NumberSelector
      open
      onClose={() => undefined}
      title="Hot Tub"
      live={live(mine)}
      quantity={quantity}
      onQuantityChange={() => undefined}
      selection={selection}
      onSelectionChange={setSelection}
      onConfirm={async () => undefined}
      perPersonCap={cap}
      ticketPrice={199}
    />
  );
}

const searchFor = (text: string) =>
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search numbers' }), { target: { value: text } });

describe('the number picker under the per-person cap', () => {
  afterEach(() => {
    cleanup();
    useToast.setState({ current: null });
  });

  it('says the cap, and with numbers held, how many more may be picked', () => {
    renderWithTheme(<Picker mine={[1, 2]} cap={3} quantity={2} />);
    expect(screen.getByTestId('selector-cap').textContent).toBe(
      'Max 3 tickets per person: you hold 2, so you can pick 1 more',
    );
    expect(Number(screen.getByRole('slider', { name: 'Number of tickets' }).getAttribute('max'))).toBe(1);
  });

  it('greys out the numbers over the cap once the selection reaches it, and says why', () => {
    renderWithTheme(<Picker mine={[1, 2]} cap={3} quantity={2} />);
    const cell = (n: number) => document.querySelector<HTMLButtonElement>(`[data-number="${n}"]`)!;
    expect(cell(17).disabled).toBe(false);
    fireEvent.click(cell(7));
    expect(screen.getByRole('button', { name: 'Remove number 7' })).toBeDefined();
    expect(screen.getByTestId('selector-cap').textContent).toContain(
      'The limit is 3 tickets per person and you already hold 2.',
    );
    const free = [...document.querySelectorAll<HTMLButtonElement>('[data-number]')].filter(
      (c) => !['1', '2', '7'].includes(c.dataset.number!),
    );
    expect(free).toHaveLength(TOTAL - 3);
    expect(free.every((c) => c.disabled)).toBe(true);
    expect(cell(17).title).toBe('Ticket #17: over the limit of 3 per person');
    // A search result is no way round it: the pick is refused with the reason.
    searchFor('17');
    fireEvent.click(screen.getByLabelText('Search results').querySelector('button')!);
    expect(screen.queryByRole('button', { name: 'Remove number 17' })).toBeNull();
    expect(useToast.getState().current).toMatchObject({
      title: 'Limit per person reached',
      description: 'The limit is 3 tickets per person and you already hold 2.',
    });
  });
});
