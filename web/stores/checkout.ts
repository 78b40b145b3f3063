import { create } from 'zustand';
import type { ORDER_ROUTES } from '../../contract/apiOrders';
import type { PaymentIntentResponse } from '../../contract/checkout';
import { ERROR_CODES } from '../../contract/errors';
import { call } from '../api/call';
import { ApiError, messageOf } from '../api/client';
import { useCart } from './cart';
import { toast } from './toast';

/** Refusals that retrying cannot change: the cart's banner says why and until when. */
const PROTECTION_CODES: ReadonlySet<string> = new Set([ERROR_CODES.selfExcluded, ERROR_CODES.spendLimit]);

/** The checkout protocol version the spec's client sends; the server accepts and ignores it. */
const CHECKOUT_VERSION = 5;

/** The 'Complete Your Purchase' dialog (docs/product.md#checkout). */
export type CheckoutPhase = 'closed' | 'loading' | 'error' | 'ready';

interface CheckoutState {
  phase: CheckoutPhase;
  intent: PaymentIntentResponse | null;
  error: string | null;
  /**
   * A 4xx about the cart itself (expired holds, empty cart, credit rule): its message says it
   * all. Anything else may be the connection or the session, and gets the spec's hint.
   */
  errorAboutCart: boolean;
  useCredit: boolean;
  /** The last failed set-up, for the cart page's 'Checkout Error' box; cleared by the next try. */
  cartError: string | null;
  /**
   * A player-protection refusal (a break, the spending limit): said once, in the cart's banner,
   * with checkout disabled; not in the dialog with a Retry that cannot help, nor in a toast.
   */
  refusal: { message: string; at: number } | null;
  /** Signed in or registered to check out: the cart page then carries on to payment. */
  resumeAfterAuth: boolean;
  start: (useCredit: boolean) => Promise<void>;
  retry: () => Promise<void>;
  close: () => void;
  setResumeAfterAuth: (resume: boolean) => void;
}

/** Bumped by every start and close, so the answer to an abandoned request is ignored. */
let attempt = 0;

export const useCheckout = create<CheckoutState>()((set, get) => ({
  phase: 'closed',
  intent: null,
  error: null,
  errorAboutCart: false,
  useCredit: false,
  cartError: null,
  refusal: null,
  resumeAfterAuth: false,
  start: async (useCredit) => {
    const mine = ++attempt;
    set({ phase: 'loading', intent: null, error: null, cartError: null, refusal: null, useCredit });
    try {
      // Without forceNew an open order made from exactly this cart is reused, so reopening the
      // dialog neither piles up orders nor cancels a payment that may already have gone through.
      const intent = await call<typeof ORDER_ROUTES.createPaymentIntent>(
        { method: 'POST', path: '/api/create-payment-intent' },
        {
          body: {
            useCredit,
            forceNew: false,
            version: CHECKOUT_VERSION,
          },
        },
      );
      if (mine !== attempt) return;
      set({ phase: 'ready', intent });
    } catch (err) {
      if (mine !== attempt) return;
      const message = messageOf(err, 'Failed to create payment intent');
      if (err instanceof ApiError && PROTECTION_CODES.has(err.code)) {
        set({ phase: 'closed', refusal: { message, at: Date.now() } });
        return;
      }
      const aboutCart =
        err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401;
      set({ phase: 'error', error: message, errorAboutCart: aboutCart, cartError: message });
      toast({ title: 'Payment setup failed', description: message, variant: 'destructive' });
      // Expired holds or a changed cart: show the server's cart as it is now.
      void useCart.getState().load();
    }
  },
  retry: () => get().start(get().useCredit),
  close: () => {
    attempt++;
    set({ phase: 'closed', intent: null, error: null });
  },
  setResumeAfterAuth: (resume) => set({ resumeAfterAuth: resume }),
}));
