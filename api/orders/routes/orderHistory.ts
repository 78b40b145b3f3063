import type { Router } from '@koa/router';
import { ORDER_ROUTES as R } from '../../../contract/apiOrders';
import { RECEIPT_VAT_NOTE, type ReceiptView } from '../../../contract/receipts';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { readPromoter } from '../../platform/settings/promoter';
import { listOrdersOf, receiptOrder } from '../orders';
import { presentOrder } from '../presenter';

/** My Account's order history and printable receipts (docs/product.md#orders): the owner's only. */
export function registerOrderHistoryRoutes(router: Router, { db, config }: AppDeps): void {
  const signedIn = requireUser(db);

  serve(router, R.orders, signedIn, async (_input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return (await listOrdersOf(db, ctx.state.user!.id)).map(presentOrder);
  });

  serve(router, R.receipt, signedIn, async ({ params: { id } }, ctx) => {
    const order = await receiptOrder(db, id, ctx.state.user!);
    const promoter = await readPromoter(db);
    ctx.set('Cache-Control', 'no-store');
    return {
      order: presentOrder(order),
      seller: {
        name: promoter.name ?? config.siteName,
        address: promoter.address,
        companyNumber: promoter.companyNumber,
        phone: promoter.phone,
        email: promoter.email,
        supportEmail: config.supportEmail,
      },
      vatNote: RECEIPT_VAT_NOTE,
    } satisfies ReceiptView;
  });
}
