import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { TICKET_ROUTES as R } from '../../contract/apiTickets';
import { CART_REVISION_HEADER, type CartChangeView, type CartItemChangeView } from '../../contract/cart';
import { ERROR_CODES } from '../../contract/errors';
import { connectionPerRequest } from '../../fastpaths/pinnedConnection';
import { requireDateOfBirth } from '../http/auth';
import { serve } from '../http/serve';
import type { AppDeps } from '../platform/context';
import { HttpError } from '../platform/errors';
import type { HoldResult } from '../platform/observability/metrics';
import { ensureGuestId, hasPassedSkill } from '../platform/sessions';
import { presentCart, presentCartItem } from './cartPresenter';
import { type CartRead, readCart } from './cartRevision';
import { versionsOf } from './holdRows';
import { LuckyDipHotPath } from './hotPath/luckyDipHold';
import { releaseLineHot } from './hotPath/releaseLine';
import { keepHold } from './keeping/keepHold';
import { HoldsInFlight } from './quickRefusal/holdsInFlight';
import { RecentlyOpen } from './quickRefusal/recentlyOpen';
import {
  addToCart,
  type CartChange,
  type CartOwner,
  changeQuantity,
  clearCart,
  type ReservationDeps,
  removeItem,
} from './reservations';

// Refusals ticket_holds_total tells apart; any other error (bad input, closed) is not counted.
const HOLD_RESULT_BY_CODE: Partial<Record<string, HoldResult>> = {
  [ERROR_CODES.numberTaken]: 'conflict',
  [ERROR_CODES.notEnoughTickets]: 'conflict',
  [ERROR_CODES.overCap]: 'capped',
  [ERROR_CODES.rateLimited]: 'limited',
};
const holdResultOf = (err: unknown): HoldResult | undefined =>
  err instanceof HttpError ? HOLD_RESULT_BY_CODE[err.code] : undefined;

/** The cart belongs to the signed-in account, or to the guest session before sign-in. */
export const cartOwnerOf = (ctx: Context): CartOwner => ({
  guestId: ensureGuestId(ctx.session!),
  userId: ctx.session?.userId ?? null,
});

/** Counts a hold request by its result for ticket_holds_total (docs/operations.md#metrics). */
async function countHoldResult(metrics: AppDeps['metrics'], hold: () => Promise<void>) {
  try {
    await hold();
    metrics.ticketHolds.inc({ result: 'ok' });
  } catch (err) {
    const result = holdResultOf(err);
    if (result) metrics.ticketHolds.inc({ result });
    throw err;
  }
}

/** The cart after a change, with the versions the change produced. */
const viewOf = ({ entries, revision }: CartRead, change: Pick<CartChange, 'changes'>): CartChangeView => ({
  cart: presentCart(entries),
  cartRevision: revision,
  versions: versionsOf(change.changes),
});

export function registerCartRoutes(
  router: Router,
  { db, events, config, rateLimits, metrics }: AppDeps,
): void {
  const deps: ReservationDeps = {
    db,
    events,
    ttlSeconds: config.reservationTtlSeconds,
    inFlight: new HoldsInFlight(),
    recentlyOpen: new RecentlyOpen(),
  };
  const onOneConnection = connectionPerRequest(db, config.fastPaths);
  // On that connection, a Lucky Dip and a line's release are one CALL each (hotPath/).
  const luckyDips = new LuckyDipHotPath(deps);

  // Holds per minute (docs/security.md): far above what a buyer clicks, far below what a script
  // needs to hold a competition again and again. Per session, and per address across sessions.
  const perSession = rateLimits.limiter({
    name: 'holds-session',
    points: config.holdRate.perSession,
    durationSeconds: 60,
  });
  const perAddress = rateLimits.limiter({
    name: 'holds-address',
    points: config.holdRate.perAddress,
    durationSeconds: 60,
  });
  const holdTooFast = (seconds: number) =>
    `You are adding tickets too quickly. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;
  const countHold = async (ctx: Context, owner: CartOwner) => {
    await perSession.hit(owner.guestId, holdTooFast);
    await perAddress.hit(ctx.ip, holdTooFast);
  };

  const countedHold = (hold: () => Promise<void>) => countHoldResult(metrics, hold);
  /** The cart after a change, read after COMMIT, with the versions the change produced. */
  const changeView = async (owner: CartOwner, change: CartChange, on = db): Promise<CartChangeView> =>
    viewOf(await readCart(on, owner), change);

  serve(router, R.cart, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    // Reading an empty cart must not start a session: a page's parallel first requests would
    // otherwise each get a different new session cookie.
    if (!ctx.session?.guestId && !ctx.session?.userId) {
      ctx.set(CART_REVISION_HEADER, '0');
      return [];
    }
    const { entries, revision } = await readCart(db, cartOwnerOf(ctx));
    ctx.set(CART_REVISION_HEADER, String(revision));
    return presentCart(entries);
  });

  const withDateOfBirth = requireDateOfBirth(db);

  serve(router, R.addToCart, withDateOfBirth, async ({ body: input }, ctx) => {
    const owner = cartOwnerOf(ctx);
    let answer: CartItemChangeView | undefined;
    await countedHold(async () => {
      await countHold(ctx, owner);
      // The quick refusal, the hold and the cart read back share one pool connection: under load
      // each wait for the pool costs as much as the rest of the request (fastpaths/pinnedConnection.ts).
      await onOneConnection(async (pinned) => {
        const skill = hasPassedSkill(ctx.session, input.competitionId);
        const hot = await luckyDips.hold(pinned, owner, input, skill);
        const result = hot?.result ?? (await addToCart({ ...deps, db: pinned }, owner, input, skill));
        if (!hot) luckyDips.learn(result.competition);
        const item = presentCartItem(
          Object.assign(result.item, { competition: result.competition }),
          result.heldNumbers,
        );
        ctx.status = result.created ? 201 : 200;
        answer = { ...item, ...(hot ? viewOf(hot.cart, result) : await changeView(owner, result, pinned)) };
      });
    });
    return answer!;
  });

  serve(router, R.updateCartItem, withDateOfBirth, async ({ params: { id }, body: { quantity } }, ctx) => {
    const owner = cartOwnerOf(ctx);
    let answer: CartChangeView | CartItemChangeView | undefined;
    await countedHold(async () => {
      await countHold(ctx, owner);
      const result = await changeQuantity(deps, owner, id, quantity);
      const view = await changeView(owner, result);
      const item = view.cart.find((i) => i.id === id);
      answer = item ? { ...item, ...view } : view;
    });
    return answer!;
  });

  serve(router, R.removeCartItem, async ({ params: { id } }, ctx) => {
    const owner = cartOwnerOf(ctx);
    return onOneConnection(async (pinned) => {
      const hot = await releaseLineHot(events, pinned, owner, id);
      if (hot) return { ok: true as const, ...viewOf(hot.cart, hot) };
      return {
        ok: true as const,
        ...(await changeView(owner, await removeItem({ ...deps, db: pinned }, owner, id), pinned)),
      };
    });
  });

  serve(router, R.keepCartItem, async ({ params: { id } }, ctx) => {
    const owner = cartOwnerOf(ctx);
    const result = await keepHold(deps, owner, id);
    const view = await changeView(owner, result);
    return {
      ...presentCartItem(result.item, view.cart.find((i) => i.id === id)?.heldNumbers ?? []),
      ...view,
    };
  });

  serve(router, R.clearCart, async (_, ctx) => {
    const owner = cartOwnerOf(ctx);
    return { ok: true, ...(await changeView(owner, await clearCart(deps, owner))) };
  });
}
