import type { Router } from '@koa/router';
import { ORDER_ROUTES as R } from '../../../contract/apiOrders';
import { RECEIPT_VAT_NOTE, type ReceiptView } from '../../../contract/receipts';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { readSiteSetting } from '../../catalogue/settings';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
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
    const operator = await readSiteSetting(db, SITE_SETTINGS.operator);
    ctx.set('Cache-Control', 'no-store');
    return {
      order: presentOrder(order),
      seller: {
        name: operator.operatorName ?? config.siteName,
        address: operator.operatorAddress,
        supportEmail: config.supportEmail,
      },
      vatNote: RECEIPT_VAT_NOTE,
    } satisfies ReceiptView;
  });
}
