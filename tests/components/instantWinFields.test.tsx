import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INSTANT_WINS_LOCKED } from '../../contract/instantWins';
import { CompetitionFormDialog } from '../../web/components/admin/CompetitionFormDialog';
import { hotTub } from './adminCompetition';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

const camper = { ...hotTub, id: 8, ticketsSold: 0 };

const put = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.filter(
    ([path, init]) => path === '/api/admin/competitions/8' && init?.method === 'PUT',
  );

/** The admin detail of the competition: no instant wins yet. */
const emptyDetail = (method: string, path: string) =>
  method === 'GET' && path === '/api/admin/competitions/8'
    ? jsonResponse(200, { ...camper, auditLog: [], instantWins: [] })
    : undefined;

const win = (id: number, number: number, title: string, extra: Record<string, unknown>) => ({
  id,
  title,
  number,
  amountPence: null,
  description: null,
  cashValuePence: null,
  won: false,
  wonAt: null,
  wonOrder: null,
  winner: null,
  deliveredAt: null,
  ...extra,
});

function renderEdit(competition = camper) {
  renderWithTheme(
    <CompetitionFormDialog
      open
      competition={competition}
      onClose={() => undefined}
      onSaved={() => undefined}
    />,
  );
}

describe('The instant wins of the competition form', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends a credit line and a prize line in pence, on a count and on chosen numbers', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'PUT' ? jsonResponse(200, camper) : emptyDetail(method, path),
    );
    renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Replace the instant wins' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add an instant win' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add an instant win' }));
    fireEvent.change(screen.getByLabelText('Instant win 1: title'), { target: { value: '£5 credit' } });
    fireEvent.change(screen.getByLabelText('Instant win 1: credit amount (£)'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Instant win 1: how many numbers'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: title'), { target: { value: 'AirPods' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: kind'), { target: { value: 'prize' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: description (optional)'), {
      target: { value: 'Pro, 2nd generation' },
    });
    fireEvent.change(screen.getByLabelText('Instant win 2: cash value (£)'), { target: { value: '129.99' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: winning numbers'), {
      target: { value: 'numbers' },
    });
    fireEvent.change(screen.getByLabelText('Instant win 2: ticket numbers (comma separated)'), {
      target: { value: '7, 42' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));

    await vi.waitFor(() => expect(put(fetchMock)).toHaveLength(1));
    expect(JSON.parse(String(put(fetchMock)[0]![1]!.body)).instantWins).toEqual([
      { title: '£5 credit', kind: 'credit', amountPence: 500, count: 3 },
      {
        title: 'AirPods',
        kind: 'prize',
        description: 'Pro, 2nd generation',
        cashValuePence: 12_999,
        numbers: [7, 42],
      },
    ]);
  });

  it('keeps the current list when editing unless replaced', async () => {
    const fetchMock = stubApi((method) => (method === 'PUT' ? jsonResponse(200, camper) : undefined));
    renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));
    await vi.waitFor(() => expect(put(fetchMock)).toHaveLength(1));
    expect(JSON.parse(String(put(fetchMock)[0]![1]!.body))).not.toHaveProperty('instantWins');
  });

  it('refuses a missing amount, a number outside the tickets and a repeat before sending', async () => {
    const fetchMock = stubApi(emptyDetail);
    renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Replace the instant wins' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add an instant win' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add an instant win' }));
    fireEvent.change(screen.getByLabelText('Instant win 1: title'), { target: { value: 'Credit' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: title'), { target: { value: 'Credit' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: credit amount (£)'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Instant win 2: winning numbers'), {
      target: { value: 'numbers' },
    });
    fireEvent.change(screen.getByLabelText('Instant win 2: ticket numbers (comma separated)'), {
      target: { value: '101' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));

    expect(
      screen.getByText('A credit instant win needs an amount in whole pence of at least 1'),
    ).toBeTruthy();
    expect(
      screen.getByText('Instant-win number 101 is not a ticket number: tickets run from 1 to 100.'),
    ).toBeTruthy();
    expect(put(fetchMock)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Instant win 2: ticket numbers (comma separated)'), {
      target: { value: '4, 4' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));
    expect(
      screen.getByText('Instant-win number 4 is listed twice: each number can win only one prize.'),
    ).toBeTruthy();
    expect(put(fetchMock)).toHaveLength(0);
  });

  it("shows the server's 409 when the list is locked, and says so for a competition with sales", async () => {
    stubApi((method, path) =>
      method === 'PUT'
        ? jsonResponse(409, { message: INSTANT_WINS_LOCKED, code: 'conflict' })
        : emptyDetail(method, path),
    );
    renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Replace the instant wins' }));
    await screen.findByText('No instant wins.');
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));
    expect(await screen.findAllByText(INSTANT_WINS_LOCKED)).not.toHaveLength(0);
    expect(within(screen.getByTestId('instant-wins')).getByRole('alert').textContent).toBe(
      INSTANT_WINS_LOCKED,
    );

    cleanup();
    renderEdit({ ...camper, ticketsSold: 3 });
    expect(within(screen.getByTestId('instant-wins')).getByText(INSTANT_WINS_LOCKED)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Replace the instant wins' })).toBeNull();
  });

  it("'Replace the instant wins' starts from the current list, and sends it as it stands", async () => {
    const current = [
      win(1, 42, '£5 credit', { kind: 'credit', amountPence: 500 }),
      win(2, 7, 'AirPods', { kind: 'prize', description: 'Pro', cashValuePence: 12_999 }),
      win(3, 3, '£5 credit', { kind: 'credit', amountPence: 500 }),
    ];
    const fetchMock = stubApi((method, path) => {
      if (method === 'PUT') return jsonResponse(200, camper);
      if (method === 'GET' && path === '/api/admin/competitions/8')
        return jsonResponse(200, { ...camper, auditLog: [], instantWins: current });
      return undefined;
    });
    renderEdit();
    fireEvent.click(screen.getByRole('button', { name: 'Replace the instant wins' }));
    expect(((await screen.findByLabelText('Instant win 1: title')) as HTMLInputElement).value).toBe(
      '£5 credit',
    );
    expect((screen.getByLabelText('Instant win 1: credit amount (£)') as HTMLInputElement).value).toBe(
      '5.00',
    );
    expect(
      (screen.getByLabelText('Instant win 1: ticket numbers (comma separated)') as HTMLInputElement).value,
    ).toBe('42, 3');
    expect((screen.getByLabelText('Instant win 2: title') as HTMLInputElement).value).toBe('AirPods');
    expect((screen.getByLabelText('Instant win 2: cash value (£)') as HTMLInputElement).value).toBe('129.99');
    expect(screen.queryByLabelText('Instant win 3: title')).toBeNull();

    // One line removed: the rest goes as it was.
    fireEvent.click(screen.getByRole('button', { name: 'Remove instant win 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));
    await vi.waitFor(() => expect(put(fetchMock)).toHaveLength(1));
    expect(JSON.parse(String(put(fetchMock)[0]![1]!.body)).instantWins).toEqual([
      { title: '£5 credit', kind: 'credit', amountPence: 500, numbers: [42, 3] },
    ]);
  });
});
