import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CartItemView } from '../../contract/cart';
import { useCart } from '../../web/stores/cart';

const item = (quantity: number): CartItemView =>
  ({
    id: 1,
    competitionId: 3,
    quantity,
    selectedNumbers: [],
    heldNumbers: Array.from({ length: quantity }, (_, i) => i + 1),
    competition: { id: 3, title: 'Hot Tub', image: null, ticketPrice: 2.49 },
  }) as unknown as CartItemView;

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

describe('useCart store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useCart.setState({ items: [], status: 'loading' });
  });

  it('does not let a GET asked before a cart:updated push overwrite the newer pushed cart', async () => {
    let answerGet: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Promise<Response>((resolve) => (answerGet = resolve))),
    );
    const load = useCart.getState().load(); // asked while the cart held 5 tickets
    useCart.getState().applyPush([item(6)]); // another tab added one: the server pushes 6
    answerGet(json([item(5)]));
    await load;
    expect(useCart.getState().items.map((i) => i.quantity)).toEqual([6]);
    expect(useCart.getState().status).toBe('ready');
  });

  it('applies a GET answer when nothing newer arrived meanwhile', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json([item(4)])),
    );
    await useCart.getState().load();
    expect(useCart.getState().items.map((i) => i.quantity)).toEqual([4]);
  });
});
