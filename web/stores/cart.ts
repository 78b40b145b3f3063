import { create } from 'zustand';
import type { TICKET_ROUTES } from '../../contract/apiTickets';
import { bundlesToPence, type PricedCart, priceLines } from '../../contract/bundles';
import { CART_REVISION_HEADER, type CartChangeView, type CartItemView } from '../../contract/cart';
import { poundsToPence } from '../../contract/money';
import { call, callWithHeaders } from '../api/call';
import { ApiError, ensureCsrfToken } from '../api/client';
import { serverNow } from '../live/clock';
import { followCart, ownChange } from '../live/competitionStore';
import { getSocket } from '../live/socket';
import { pageSeed } from '../ssr/seed';
import { useAuth } from './auth';
import { noteReleased } from './releasedHolds';
import { toast } from './toast';

/** Local copy of the cart (spec: 'Cart storage'), shown at once on start while the server answers. */
export const CART_STORAGE_KEY = 'cartItems';

export interface AddToCartRequest {
  competitionId: number;
  quantity: number;
  selectedNumbers: number[];
}

interface CartState {
  items: CartItemView[];
  /** 'loading' until the first server answer; the stored copy is shown meanwhile. */
  status: 'loading' | 'ready';
  /**
   * The revision of the cart shown (the highest seen), or undefined when any server cart may
   * replace it (before the first answer, after a change of account or a reconnect).
   */
  revision: number | undefined;
  /** Reloads with a GET; `fresh` accepts the answer whatever the revision seen before. */
  load: (options?: { fresh?: boolean }) => Promise<void>;
  /**
   * Shows a server cart (an answer, a GET or a `cart:updated` push) if it is newer than the one
   * shown; an equal revision is the same cart, an older one is ignored.
   */
  accept: (items: CartItemView[], revision: number | undefined) => void;
  add: (request: AddToCartRequest) => Promise<CartItemView>;
  setQuantity: (id: number, quantity: number) => Promise<void>;
  remove: (id: number) => Promise<void>;
  /** 'Keep my numbers': the hold's time starts again, once (the server decides; a refusal throws). */
  keep: (id: number) => Promise<void>;
}

function storedItems(): CartItemView[] {
  try {
    const raw = localStorage.getItem(CART_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as CartItemView[]) : [];
  } catch {
    return [];
  }
}

function store(items: CartItemView[]) {
  try {
    // An empty server cart clears the local copy (spec).
    if (items.length) localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(items));
    else localStorage.removeItem(CART_STORAGE_KEY);
  } catch {
    // Storage unavailable (private mode, quota): the server cart is the truth anyway.
  }
}

/** Spec 'Cart dedup': items with the same id, or the same competition and number set, are dropped. */
export function dedupeCart(items: CartItemView[]): CartItemView[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const numbers = [...item.selectedNumbers].sort((a, b) => a - b).join(',');
    const keys = [`id:${item.id}`, ...(numbers ? [`c:${item.competitionId}:${numbers}`] : [])];
    if (keys.some((k) => seen.has(k))) return false;
    for (const k of keys) seen.add(k);
    return true;
  });
}

export const cartTicketCount = (items: CartItemView[]) => items.reduce((n, i) => n + i.quantity, 0);
/**
 * The cart priced as checkout prices it (docs/product.md#multi-buy-pricing): each competition's
 * tickets together, at the cheapest mix of its bundles and single tickets; lines in id order, as
 * checkout takes them. Prices arrive in pounds and are summed in pence (pounds would drift).
 */
export function cartPricing(items: CartItemView[]): PricedCart & { linePence: Map<number, number> } {
  const lines = [...items].sort((a, b) => a.id - b.id);
  const priced = priceLines(
    lines.map((i) => ({
      competitionId: i.competitionId,
      count: i.quantity,
      unitPence: poundsToPence(i.competition.ticketPrice),
      bundles: bundlesToPence(i.competition.bundles ?? []),
    })),
  );
  const linePence = new Map(
    lines.map((i, n) => [i.id, priced.lineCosts[n]!.reduce((sum, c) => sum + c, 0)] as const),
  );
  return { ...priced, linePence };
}

/** Cart total in pence, bundles applied. */
export const cartTotalPence = (items: CartItemView[]) => cartPricing(items).totalPence;

/**
 * Sends one change to the cart and shows the cart its answer carries, without asking again. The
 * competitions it touches hold back their ticket events until then (ownChange), so the change's
 * own broadcast is recognised by the versions the answer reports.
 */
async function change<T extends CartChangeView>(
  competitionIds: number[],
  send: () => Promise<T>,
): Promise<T> {
  const own = ownChange(competitionIds);
  try {
    const answer = await send();
    useCart.getState().accept(answer.cart, answer.cartRevision);
    own.settle(answer.versions);
    return answer;
  } catch (err) {
    own.settle();
    throw err;
  }
}

const competitionOf = (id: number) =>
  useCart
    .getState()
    .items.filter((i) => i.id === id)
    .map((i) => i.competitionId);

// A server-rendered page was rendered with no cart (the server does not read the browser's copy):
// the hydration renders that too (zustand renders a store's first state while hydrating), and the
// stored copy shows right after (below).
const hydrating = pageSeed() !== undefined;

/** The page's cart: the server's cart for this session or account, kept live over the socket. */
export const useCart = create<CartState>()((set, get) => ({
  items: hydrating ? [] : dedupeCart(storedItems()),
  status: 'loading',
  revision: undefined,
  accept: (items, revision) => {
    const shown = get().revision;
    if (shown !== undefined && (revision === undefined || revision <= shown)) {
      set({ status: 'ready' });
      return;
    }
    const clean = dedupeCart(items);
    // Lines gone because their time ran out (not removed, not bought): the cart says which.
    const kept = new Set(clean.map((i) => i.id));
    const now = serverNow();
    noteReleased(get().items.filter((i) => !kept.has(i.id) && Date.parse(i.expiresAt) <= now));
    store(clean);
    set({ items: clean, status: 'ready', revision });
    followCart(clean);
  },
  load: async ({ fresh = false } = {}) => {
    // A new account or a reconnect: the cart may be another one, with its own count.
    if (fresh) set({ revision: undefined });
    try {
      const { body, headers } = await callWithHeaders<typeof TICKET_ROUTES.cart>({
        method: 'GET',
        path: '/api/cart',
      });
      const revision = Number(headers.get(CART_REVISION_HEADER) ?? Number.NaN);
      get().accept(body, Number.isFinite(revision) ? revision : undefined);
    } catch {
      // Keep the stored copy; the next push or action reloads it.
      set({ status: 'ready' });
    }
  },
  add: async (request) => {
    try {
      return await change([request.competitionId], () =>
        call<typeof TICKET_ROUTES.addToCart>({ method: 'POST', path: '/api/cart' }, { body: request }),
      );
    } catch (err) {
      // Any failed add may mean the cart moved on (spec): reload it from the server.
      void get().load();
      throw err;
    }
  },
  setQuantity: async (id, quantity) => {
    try {
      await change(competitionOf(id), () =>
        call<typeof TICKET_ROUTES.updateCartItem>(
          { method: 'PATCH', path: '/api/cart/:id' },
          { params: { id }, body: { quantity } },
        ),
      );
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        toast({ title: 'Cart Updated', description: 'Your cart has been refreshed with the latest items.' });
        await get().load();
        return;
      }
      void get().load();
      throw err;
    }
  },
  remove: async (id) => {
    try {
      await change(competitionOf(id), () =>
        call<typeof TICKET_ROUTES.removeCartItem>(
          { method: 'DELETE', path: '/api/cart/:id' },
          { params: { id } },
        ),
      );
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      // Already gone, silently: drop it here and ask for the cart as it is now.
      set((s) => {
        const items = s.items.filter((i) => i.id !== id);
        store(items);
        return { items };
      });
      void get().load();
    }
  },
  keep: async (id) => {
    try {
      await change(competitionOf(id), () =>
        call<typeof TICKET_ROUTES.keepCartItem>(
          { method: 'POST', path: '/api/cart/:id/keep' },
          { params: { id } },
        ),
      );
    } catch (err) {
      // Refused or gone: show the cart as the server has it.
      void get().load();
      throw err;
    }
  },
}));
if (hydrating) useCart.setState({ items: dedupeCart(storedItems()) });

let syncing = false;

/**
 * Keeps the cart in step with the server: loaded when the socket connects, replaced by `cart:updated` pushes
 * (another tab or device, expiry), reloaded whenever the signed-in account changes (the guest
 * cart moves to the account at sign-in).
 */
export function startCartSync(): void {
  if (syncing) return;
  syncing = true;
  const socket = getSocket();
  // Loaded once the socket connects (first time included): the handshake joins the cart's rooms
  // before 'connect', so no push is missed between this GET and the join, and a page load asks
  // once. A reconnect may have missed pushes, and the session (so the cart) may have changed
  // meanwhile, hence `fresh`.
  socket.on('connect', () => void useCart.getState().load({ fresh: true }));
  // A socket that cannot connect still gets the cart once (after the session exists: the CSRF
  // call creates it).
  socket.on('connect_error', () => {
    if (useCart.getState().status === 'loading') void ensureCsrfToken().then(() => useCart.getState().load());
  });
  socket.on('cart:updated', ({ items, revision }) => useCart.getState().accept(items, revision));
  socket.on('cart:expired', ({ itemIds }) => {
    const gone = useCart.getState().items.filter((i) => itemIds.includes(i.id));
    noteReleased(gone);
    const titles = [...new Set(gone.map((i) => i.competition.title))].join(', ');
    toast({
      title: 'Reservation expired',
      description: titles
        ? `Your reserved tickets for ${titles} were released.`
        : 'Some reserved tickets were released.',
      variant: 'destructive',
    });
  });
  let lastUserId = useAuth.getState().user?.id ?? null;
  useAuth.subscribe((s) => {
    const userId = s.user?.id ?? null;
    if (userId === lastUserId) return;
    lastUserId = userId;
    void useCart.getState().load({ fresh: true });
  });
}
