import { create } from 'zustand';
import type { CartItemView } from '../../contract/cart';
import { poundsToPence } from '../../contract/money';
import { ApiError, apiGet, apiSend, ensureCsrfToken } from '../api/client';
import { getSocket } from '../live/socket';
import { useAuth } from './auth';
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
  load: () => Promise<void>;
  /** Replaces the cart with the server's view (GET answer or a `cart:updated` push). */
  replace: (items: CartItemView[]) => void;
  /** A `cart:updated` push: newer than any GET still in flight, which is then ignored. */
  applyPush: (items: CartItemView[]) => void;
  add: (request: AddToCartRequest) => Promise<CartItemView>;
  setQuantity: (id: number, quantity: number) => Promise<void>;
  remove: (id: number) => Promise<void>;
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
/** Cart total in pence (prices arrive in pounds; summing pounds would drift). */
export const cartTotalPence = (items: CartItemView[]) =>
  items.reduce((sum, i) => sum + poundsToPence(i.competition.ticketPrice) * i.quantity, 0);

/**
 * Bumped when a load starts and when a push arrives. A GET answer is applied only if nothing
 * happened since it was asked: a push that arrived meanwhile (or a later load) is at least as
 * new, and an older answer would otherwise overwrite it (seen: a second tab kept the cart from
 * before a quantity change).
 */
let cartRevision = 0;

/** The page's cart: the server's cart for this session or account, kept live over the socket. */
export const useCart = create<CartState>()((set, get) => ({
  items: dedupeCart(storedItems()),
  status: 'loading',
  replace: (items) => {
    const clean = dedupeCart(items);
    store(clean);
    set({ items: clean, status: 'ready' });
  },
  applyPush: (items) => {
    cartRevision++;
    get().replace(items);
  },
  load: async () => {
    const asked = ++cartRevision;
    try {
      const items = await apiGet<CartItemView[]>('/api/cart');
      if (asked === cartRevision) get().replace(items);
      else set({ status: 'ready' });
    } catch {
      // Keep the stored copy; the next push or action reloads it.
      set({ status: 'ready' });
    }
  },
  add: async (request) => {
    try {
      const item = await apiSend<CartItemView>('POST', '/api/cart', request);
      await get().load();
      return item;
    } catch (err) {
      // Any failed add may mean the cart moved on (spec): reload it from the server.
      void get().load();
      throw err;
    }
  },
  setQuantity: async (id, quantity) => {
    try {
      await apiSend('PATCH', `/api/cart/${id}`, { quantity });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        toast({ title: 'Cart Updated', description: 'Your cart has been refreshed with the latest items.' });
        await get().load();
        return;
      }
      throw err;
    } finally {
      void get().load();
    }
  },
  remove: async (id) => {
    try {
      await apiSend('DELETE', `/api/cart/${id}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err; // 404: already gone, silently
    }
    set((s) => {
      const items = s.items.filter((i) => i.id !== id);
      store(items);
      return { items };
    });
    void get().load();
  },
}));

let syncing = false;

/**
 * Keeps the cart in step with the server: loaded on start, replaced by `cart:updated` pushes
 * (another tab or device, expiry), reloaded whenever the signed-in account changes (the guest
 * cart moves to the account at sign-in).
 */
export function startCartSync(): void {
  if (syncing) return;
  syncing = true;
  // After the session exists (the CSRF call creates it), so this tab and its socket share one.
  void ensureCsrfToken().then(() => useCart.getState().load());
  const socket = getSocket();
  socket.on('cart:updated', ({ items }) => useCart.getState().applyPush(items));
  socket.on('cart:expired', ({ itemIds }) => {
    const gone = useCart.getState().items.filter((i) => itemIds.includes(i.id));
    const titles = [...new Set(gone.map((i) => i.competition.title))].join(', ');
    toast({
      title: 'Reservation expired',
      description: titles
        ? `Your reserved tickets for ${titles} were released.`
        : 'Some reserved tickets were released.',
      variant: 'destructive',
    });
  });
  // A reconnect may have missed pushes.
  socket.on('connect', () => void useCart.getState().load());
  let lastUserId = useAuth.getState().user?.id ?? null;
  useAuth.subscribe((s) => {
    const userId = s.user?.id ?? null;
    if (userId === lastUserId) return;
    lastUserId = userId;
    void useCart.getState().load();
  });
}
