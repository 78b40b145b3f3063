import type { Router } from '@koa/router';
import { PhoneNumberSchema } from '../../contract/auth';
import { penceToPounds } from '../../contract/money';
import type { AppDeps } from '../context';
import { requireUser } from '../middleware/auth';
import { parse } from '../middleware/validate';
import { presentCreditTransaction, presentUser } from '../presenters/user';
import { updatePhoneNumber } from '../services/auth';
import { listCreditTransactions } from '../services/credit';

/** The signed-in customer's own data: credit balance, ledger, phone number. */
export function registerAccountRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get('/api/user/credit', signedIn, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { credit: penceToPounds(ctx.state.user!.siteCreditPence) };
  });

  router.get('/api/user/credit/transactions', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listCreditTransactions(db, ctx.state.user!.id)).map(presentCreditTransaction);
  });

  router.put('/api/user/phone-number', signedIn, async (ctx) => {
    const { phoneNumber } = parse(PhoneNumberSchema, ctx.request.body);
    ctx.body = presentUser(await updatePhoneNumber(db, ctx.state.user!.id, phoneNumber));
  });
}
