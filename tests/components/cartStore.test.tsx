import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeBitmap } from '../../contract/bitmap';
import { CART_REVISION_HEADER, type CartItemView } from '../../contract/cart';
import type { CompetitionSnapshot } from '../../contract/realtime';
import { NumberSelector } from '../../web/components/purchase/NumberSelector';
import { numberState, useLiveCompetition, useLiveCompetitions } from '../../web/live/competitionStore';
import { startCartSync, useCart } from '../../web/stores/cart';
import { useToast } from '../../web/stores/toast';
import { jsonResponse, startFakeRealtime, stubApi } from './fakeApi';
import { fakeSocket, push } from './fakeSocket';
import { renderWithTheme } from './render';

vi.mock('socket.io-client', () => import('./fakeSocket'));

const COMPETITION = 3;

const item = (quantity: number, heldNumbers = Array.from({ length: quantity }, (_, i) => i + 1)) =>
  ({
    id: 1,
    competitionId: COMPETITION,
    quantity,
    selectedNumbers: [],
    heldNumbers,
    competition: { id: COMPETITION, title: 'Hot Tub', image: null, ticketPrice: 2.49 },
  }) as unknown as CartItemView;

const cartAnswer = (items: CartItemView[], revision: number) =>
  new Response(JSON.stringify(items), {
    status: 200,
    headers: { 'Content-Type': 'application/json', [CART_REVISION_HEADER]: String(revision) },
  });

const quantities = () => useCart.getState().items.map((i) => i.quantity);

/** The requests made, as 'METHOD path', leaving out the CSRF token (fetched once per page). */
const requests = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls
    .map(([path, init]) => `${init?.method ?? 'GET'} ${path}`)
    .filter((r) => r !== 'GET /api/csrf-token');

afterEach(() => {
  cleanup(); // stops watching, so the next test starts from its own snapshot
  vi.unstubAllGlobals();
  useCart.setState({ items: [], status: 'loading', revision: undefined });
  useToast.getState().dismiss();
});

// The stores' listeners reach the (mocked) socket once it has loaded, as in the app.
beforeAll(startFakeRealtime);

describe('useCart store: the newest cart wins', () => {
  it('does not let a GET read before a newer cart:updated push overwrite it', async () => {
    let answerGet: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Promise<Response>((resolve) => (answerGet = resolve))),
    );
    const load = useCart.getState().load(); // read while the cart held 5 tickets (revision 7)
    useCart.getState().accept([item(6)], 8); // another tab added one: the server pushes revision 8
    answerGet(cartAnswer([item(5)], 7));
    await load;
    expect(quantities()).toEqual([6]);
    expect(useCart.getState().revision).toBe(8);
    expect(useCart.getState().status).toBe('ready');
  });

  it('ignores a cart:updated push older than the cart shown, and applies a newer one', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'GET' && path === '/api/cart' ? cartAnswer([item(4)], 5) : undefined,
    );
    startCartSync();
    // Asked once, when the socket has joined the cart's rooms (not also on start).
    expect(requests(fetchMock)).toEqual([]);
    push('connect');
    await waitFor(() => expect(quantities()).toEqual([4]));
    expect(requests(fetchMock)).toEqual(['GET /api/cart']);
    push('cart:updated', { items: [item(2)], revision: 3 }); // sent before the cart we show was read
    expect(quantities()).toEqual([4]);
    push('cart:updated', { items: [item(3)], revision: 5 }); // the same cart again
    expect(quantities()).toEqual([4]);
    push('cart:updated', { items: [item(7)], revision: 6 });
    expect(quantities()).toEqual([7]);
  });

  it('accepts a reload after a change of account whatever its revision (another cart, its own count)', async () => {
    useCart.getState().accept([item(4)], 40);
    stubApi((method, path) =>
      method === 'GET' && path === '/api/cart' ? cartAnswer([item(1)], 2) : undefined,
    );
    await useCart.getState().load(); // an ordinary reload: older than what is shown
    expect(quantities()).toEqual([4]);
    await useCart.getState().load({ fresh: true });
    expect(quantities()).toEqual([1]);
    expect(useCart.getState().revision).toBe(2);
  });

  it('shows the cart a change answers with, without asking for it again', async () => {
    useCart.getState().accept([item(2)], 3);
    const fetchMock = stubApi((method, path) =>
      method === 'PATCH' && path === '/api/cart/1'
        ? jsonResponse(200, { ...item(3), cart: [item(3)], cartRevision: 4, versions: { '3': 9 } })
        : undefined,
    );
    await useCart.getState().setQuantity(1, 3);
    expect(quantities()).toEqual([3]);
    expect(requests(fetchMock)).toEqual(['PATCH /api/cart/1']);
  });
});

/** The selector as the detail page uses it: confirm adds the selection, then clears it. */
function Selector({ initial }: { initial: number[] }) {
  const live = useLiveCompetition(COMPETITION);
  const [selection, setSelection] = useState(initial);
  return (
    <NumberSelector
      open
      onClose={() => undefined}
      title="Hot Tub"
      live={live}
      quantity={initial.length}
      onQuantityChange={() => undefined}
      selection={selection}
      onSelectionChange={setSelection}
      perPersonCap={100}
      ticketPrice={199}
      onConfirm={async () => {
        await useCart.getState().add({ competitionId: COMPETITION, quantity: 1, selectedNumbers: selection });
        setSelection([]);
      }}
    />
  );
}

describe("a hold's own broadcast is recognised by the version its answer reports", () => {
  const TOTAL = 20;
  const snapshot = (version: number): CompetitionSnapshot => ({
    competitionId: COMPETITION,
    version,
    totalTickets: TOTAL,
    ticketsSold: 0,
    status: 'active',
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
    autoWin: false,
    sold: encodeBitmap(TOTAL, []),
    reserved: encodeBitmap(TOTAL, []),
    mine: [],
    owned: [],
    serverTime: new Date().toISOString(),
  });

  /** Watches the competition at version 10 with 5 selected; the POST waits for `answer()`. */
  async function holdFive() {
    fakeSocket.snapshot = snapshot(10);
    let answerPost: (r: Response) => void = () => undefined;
    const fetchMock = stubApi((method, path) =>
      method === 'POST' && path === '/api/cart'
        ? (new Promise<Response>((resolve) => (answerPost = resolve)) as unknown as Response)
        : undefined,
    );
    renderWithTheme(<Selector initial={[5]} />);
    await waitFor(() => expect(useLiveCompetitions.getState().byId[COMPETITION]).toBeDefined());
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Selection' }));
    await waitFor(() => expect(requests(fetchMock)).toEqual(['POST /api/cart']));
    const answer = () =>
      answerPost(
        jsonResponse(201, { ...item(1, [5]), cart: [item(1, [5])], cartRevision: 2, versions: { '3': 11 } }),
      );
    return { fetchMock, answer };
  }

  const stateOf = (n: number) => numberState(useLiveCompetitions.getState().byId[COMPETITION]!, n);
  const reserved = (version: number, numbers: number[]) =>
    push('tickets:reserved', { competitionId: COMPETITION, version, numbers });

  it('ends as mine when the broadcast comes before the answer (and a stranger’s event meanwhile stays theirs)', async () => {
    const { fetchMock, answer } = await holdFive();
    reserved(11, [5]); // our own hold's broadcast, not yet recognisable
    reserved(12, [7]); // someone else's
    expect(stateOf(5)).not.toBe('reserved');
    expect(useToast.getState().current).toBeNull();
    answer();
    await waitFor(() => expect(screen.getByText('Selected 0 of 1')).toBeTruthy());
    expect(stateOf(5)).toBe('mine');
    expect(stateOf(7)).toBe('reserved');
    expect(useLiveCompetitions.getState().byId[COMPETITION]!.version).toBe(12);
    expect(useToast.getState().current).toBeNull();
    expect(requests(fetchMock)).toEqual(['POST /api/cart']);
  });

  it('ends as mine when the broadcast comes after the answer', async () => {
    const { fetchMock, answer } = await holdFive();
    answer();
    await waitFor(() => expect(screen.getByText('Selected 0 of 1')).toBeTruthy());
    expect(stateOf(5)).toBe('mine');
    reserved(11, [5]);
    expect(stateOf(5)).toBe('mine');
    expect(useLiveCompetitions.getState().byId[COMPETITION]!.version).toBe(11);
    expect(useToast.getState().current).toBeNull();
    expect(requests(fetchMock)).toEqual(['POST /api/cart']);
  });

  it('a sale of our own hold makes the number ours; a stranger’s sale stays Purchased (issue 22)', async () => {
    const { answer } = await holdFive();
    answer();
    await waitFor(() => expect(stateOf(5)).toBe('mine'));
    reserved(11, [5]);
    reserved(12, [7]);
    push('tickets:purchased', { competitionId: COMPETITION, version: 13, numbers: [5], ticketsSold: 1 });
    push('tickets:purchased', { competitionId: COMPETITION, version: 14, numbers: [7], ticketsSold: 2 });
    expect(stateOf(5)).toBe('owned');
    expect(stateOf(7)).toBe('sold');
  });
});
