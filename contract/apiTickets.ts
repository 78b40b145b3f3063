import { route } from './apiRoute';
import type { CartChangeView, CartItemChangeView, CartItemView } from './cart';
import { AddToCartSchema, CartItemIdSchema, UpdateCartItemSchema } from './cart';

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
  clearCart: route<CartChangeView & { ok: boolean }>()({ method: 'DELETE', path: '/api/cart' }),
};
