import type { Router } from '@koa/router';
import { PhoneNumberSchema, PreferencesSchema } from '../../../contract/auth';
import { penceToPounds } from '../../../contract/money';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { updatePhoneNumber } from '../auth';
import { listCreditTransactions } from '../credit';
import { setMarketingConsent } from '../preferences';
import { presentCreditTransaction, presentPreferences, presentUser } from '../presenter';

/** The signed-in customer's own data: credit balance, ledger, phone number, marketing consent. */
export function registerAccountRoutes(router: Router, { db, events }: AppDeps): void {
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

  router.put('/api/account/preferences', signedIn, async (ctx) => {
    const { marketingEmails } = parse(PreferencesSchema, ctx.request.body);
    ctx.body = presentPreferences(
      await setMarketingConsent({ db, events }, ctx.state.user!.id, marketingEmails),
    );
  });
}
