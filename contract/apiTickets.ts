import { route } from './apiRoute';
import type { CartChangeView, CartItemChangeView, CartItemView } from './cart';
import { AddToCartSchema, CartItemIdSchema, UpdateCartItemSchema } from './cart';
import { IdParamSchema } from './competitions';
import { NumberAlertsRequestSchema, type NumberAlertsView } from './numberAlerts';

/** The cart: holds on numbers (the cart's revision travels in the X-Cart-Revision header of GET). */
export const TICKET_ROUTES = {
  cart: route<CartItemView[]>()({ method: 'GET', path: '/api/cart' }),
  addToCart: route<CartItemChangeView>()({ method: 'POST', path: '/api/cart', body: AddToCartSchema }),
  updateCartItem: route<CartChangeView | CartItemChangeView>()({
    method: 'PATCH',
    path: '/api/cart/:id',
    params: CartItemIdSchema,
    body: UpdateCartItemSchema,
  }),
  removeCartItem: route<CartChangeView & { ok: boolean }>()({
    method: 'DELETE',
    path: '/api/cart/:id',
    params: CartItemIdSchema,
  }),
  /** 'Keep my numbers': the hold's time starts again, once per hold (api/tickets/keepHold.ts). */
  keepCartItem: route<CartItemChangeView>()({
    method: 'POST',
    path: '/api/cart/:id/keep',
    params: CartItemIdSchema,
  }),
  /** 'Tell me when it's free' (api/tickets/alerts/numberAlerts.ts). */
  numberAlerts: route<NumberAlertsView>()({
    method: 'POST',
    path: '/api/competitions/:id/number-alerts',
    params: IdParamSchema,
    body: NumberAlertsRequestSchema,
  }),
  clearCart: route<CartChangeView & { ok: boolean }>()({ method: 'DELETE', path: '/api/cart' }),
};
