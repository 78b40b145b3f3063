import type { Router } from '@koa/router';
import { PhoneNumberSchema, PreferencesSchema, RedeemPromoCodeSchema } from '../../../contract/auth';
import { penceToPounds } from '../../../contract/money';
import type { CurrentPromotions } from '../../../contract/site';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { updatePhoneNumber } from '../auth';
import { listCreditTransactions } from '../credit';
import { setMarketingConsent } from '../preferences';
import { presentCreditTransaction, presentPreferences, presentUser } from '../presenter';
import { createPromoCodes } from '../promoCodes';
import { currentSignUpOffer } from '../promos';
import { twoFactorStatus } from '../twoFactor';

/** The public sign-up offer, and the signed-in customer's own data: credit balance, ledger, promo codes, phone number, marketing consent. */
export function registerAccountRoutes(router: Router, deps: AppDeps): void {
  const { db, events } = deps;
  const signedIn = requireUser(db);
  const promoCodes = createPromoCodes(deps);

  // Public: the banner, hero and Terms state the offer only while new accounts get it.
  router.get('/api/promotions/current', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { signUpOffer: await currentSignUpOffer(db) } satisfies CurrentPromotions;
  });

  router.get('/api/user/credit', signedIn, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { credit: penceToPounds(ctx.state.user!.siteCreditPence) };
  });

  router.get('/api/user/credit/transactions', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listCreditTransactions(db, ctx.state.user!.id)).map(presentCreditTransaction);
  });

  router.post('/api/account/promo-code', signedIn, async (ctx) => {
    const { code } = parse(RedeemPromoCodeSchema, ctx.request.body);
    ctx.body = await promoCodes.redeem(ctx.state.user!.id, code);
  });

  router.put('/api/user/phone-number', signedIn, async (ctx) => {
    const { phoneNumber } = parse(PhoneNumberSchema, ctx.request.body);
    const user = await updatePhoneNumber(db, ctx.state.user!.id, phoneNumber);
    ctx.body = presentUser(user, await twoFactorStatus(deps, user));
  });

  router.put('/api/account/preferences', signedIn, async (ctx) => {
    const { marketingEmails } = parse(PreferencesSchema, ctx.request.body);
    ctx.body = presentPreferences(
      await setMarketingConsent({ db, events }, ctx.state.user!.id, marketingEmails),
    );
  });
}
