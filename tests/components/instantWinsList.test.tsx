import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminInstantWin } from '../../contract/instantWins';
import { InstantWinsList } from '../../web/components/admin/InstantWinsList';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

const unwon: AdminInstantWin = {
  id: 1,
  title: '£5 site credit',
  kind: 'credit',
  amountPence: 500,
  description: null,
  cashValuePence: null,
  number: 42,
  won: false,
  wonAt: null,
  wonOrder: null,
  winner: null,
  deliveredAt: null,
};
const airPods: AdminInstantWin = {
  ...unwon,
  id: 2,
  title: 'AirPods',
  kind: 'prize',
  amountPence: null,
  cashValuePence: 12_900,
  number: 7,
  won: true,
  wonAt: '2026-11-20T18:30:00.000Z',
  wonOrder: 1,
  winner: { userId: 3, displayName: 'Jane D.', orderId: 11 },
};

describe('The instant wins on the admin competition page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows each number with its state and marks a won prize delivered', async () => {
    const fetchMock = stubApi((method) => (method === 'PATCH' ? jsonResponse(200, {}) : undefined));
    const onChanged = vi.fn();
    renderWithTheme(<InstantWinsList competitionId={9} wins={[unwon, airPods]} onChanged={onChanged} />);

    const [first, second] = screen.getAllByTestId('admin-instant-win');
    expect(first!.textContent).toContain('Won by Jane D.');
    expect(first!.textContent).toContain('(instant win no. 1)');
    expect(first!.textContent).toContain('Prize (cash value £129.00)');
    expect(second!.textContent).toContain('42');
    expect(second!.textContent).toContain('Not yet won');
    expect(within(second!).queryByRole('button')).toBeNull();

    fireEvent.click(within(first!).getByRole('button', { name: 'Mark delivered: ticket 7' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalled());
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(patch[0]).toBe('/api/admin/competitions/9/instant-wins/2');
    expect(JSON.parse(String(patch[1]!.body))).toEqual({ delivered: true });
  });

  it('offers Undo for a delivered prize', () => {
    stubApi(() => undefined);
    renderWithTheme(
      <InstantWinsList
        competitionId={9}
        wins={[{ ...airPods, deliveredAt: '2026-11-21T10:00:00.000Z' }]}
        onChanged={() => undefined}
      />,
    );
    expect(screen.getByRole('button', { name: 'Undo delivered: ticket 7' }).textContent).toBe('Undo');
  });
});
