import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { AddToCartSchema, CartItemIdSchema, UpdateCartItemSchema } from '../../contract/cart';
import { IdParamSchema } from '../../contract/competitions';
import { hasPassedSkill } from '../catalogue/skill';
import { parse } from '../http/validate';
import type { AppDeps } from '../platform/context';
import { ensureGuestId } from '../platform/sessions';
import { presentCart, presentCartItem } from './cartPresenter';
import { listAvailableNumbers, listReservedNumbers } from './numbers';
import {
  addToCart,
  type CartOwner,
  changeQuantity,
  clearCart,
  listCart,
  type ReservationDeps,
  removeItem,
} from './reservations';

/** The cart belongs to the signed-in account, or to the guest session before sign-in. */
export const cartOwnerOf = (ctx: Context): CartOwner => ({
  guestId: ensureGuestId(ctx.session!),
  userId: ctx.session?.userId ?? null,
});

export function registerCartRoutes(router: Router, { db, events, config }: AppDeps): void {
  const deps: ReservationDeps = { db, events, ttlSeconds: config.reservationTtlSeconds };

  const itemView = async (owner: CartOwner, itemId: number) => {
    const entry = (await listCart(db, owner)).find((e) => e.item.id === itemId);
    return entry ? presentCartItem(entry.item, entry.heldNumbers) : undefined;
  };

  router.get('/api/cart', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    // Reading an empty cart must not start a session: a page's parallel first requests would
    // otherwise each get a different new session cookie.
    if (!ctx.session?.guestId && !ctx.session?.userId) {
      ctx.body = [];
      return;
    }
    ctx.body = presentCart(await listCart(db, cartOwnerOf(ctx)));
  });

  router.post('/api/cart', async (ctx) => {
    const input = parse(AddToCartSchema, ctx.request.body);
    const result = await addToCart(
      deps,
      cartOwnerOf(ctx),
      input,
      hasPassedSkill(ctx.session, input.competitionId),
    );
    ctx.status = result.created ? 201 : 200;
    ctx.body = presentCartItem(
      Object.assign(result.item, { competition: result.competition }),
      result.heldNumbers,
    );
  });

  router.patch('/api/cart/:id', async (ctx) => {
    const { id } = parse(CartItemIdSchema, ctx.params);
    const { quantity } = parse(UpdateCartItemSchema, ctx.request.body);
    const owner = cartOwnerOf(ctx);
    await changeQuantity(deps, owner, id, quantity);
    ctx.body = await itemView(owner, id);
  });

  router.delete('/api/cart/:id', async (ctx) => {
    const { id } = parse(CartItemIdSchema, ctx.params);
    await removeItem(deps, cartOwnerOf(ctx), id);
    ctx.body = { ok: true };
  });

  router.delete('/api/cart', async (ctx) => {
    await clearCart(deps, cartOwnerOf(ctx));
    ctx.body = { ok: true };
  });
}

/** The number picker's public lists of a competition's free and held numbers. */
export function registerNumberRoutes(router: Router, { db }: AppDeps): void {
  const idOf = (params: unknown) => parse(IdParamSchema, params).id;

  router.get('/api/competitions/:id/available-tickets', async (ctx) => {
    ctx.body = await listAvailableNumbers(db, idOf(ctx.params));
  });

  router.get('/api/competitions/:id/reserved-tickets', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listReservedNumbers(db, idOf(ctx.params));
  });
}
