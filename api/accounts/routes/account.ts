import type { Router } from '@koa/router';
import { ACCOUNT_ROUTES as R } from '../../../contract/apiAccounts';
import { CLAIM_ROUTES } from '../../../contract/apiClaims';
import { penceToPounds } from '../../../contract/money';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { updateDeliveryAddress, updatePhoneNumber } from '../auth';
import { listCreditTransactions } from '../credit';
import { setMarketingConsent } from '../preferences';
import { presentCreditTransaction, presentPreferences, presentUser } from '../presenter';
import { createPromoCodes } from '../promoCodes';
import { currentSignUpOffer } from '../promos';
import { publicNameOf, setPublicName } from '../publicNames/publicNames';
import { referralView } from '../referrals/referralCodes';
import { settleReferralsOf } from '../referrals/referralRewards';
import { twoFactorStatus } from '../twoFactor';

/** The public sign-up offer, and the signed-in customer's own data: credit balance, ledger, referral link, promo codes, phone number, delivery address, public name, marketing consent. */
export function registerAccountRoutes(router: Router, deps: AppDeps): void {
  const { db, events } = deps;
  const signedIn = requireUser(db);
  const promoCodes = createPromoCodes(deps);

  // Public: the banner, hero and Terms state the offer only while new accounts get it.
  serve(router, R.currentPromotions, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return { signUpOffer: await currentSignUpOffer(db) };
  });

  serve(router, R.credit, signedIn, (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return { credit: penceToPounds(ctx.state.user!.siteCreditPence) };
  });

  serve(router, R.creditTransactions, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return (await listCreditTransactions(db, ctx.state.user!.id)).map(presentCreditTransaction);
  });

  // The customer's referral link (docs/product.md#referrals): the code is made on first ask.
  // Pending referrals are settled first, so a settle lost to a crash is made good here.
  serve(router, R.referral, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const userId = ctx.state.user!.id;
    await settleReferralsOf(db, userId);
    return await referralView(db, deps.config.publicUrl, userId);
  });

  serve(router, R.redeemPromoCode, signedIn, async ({ body: { code } }, ctx) => {
    return await promoCodes.redeem(ctx.state.user!.id, code);
  });

  serve(router, R.phoneNumber, signedIn, async ({ body: { phoneNumber } }, ctx) => {
    const user = await updatePhoneNumber(db, ctx.state.user!.id, phoneNumber);
    return presentUser(user, await twoFactorStatus(deps, user));
  });

  // Where a prize is delivered (docs/draws.md#7-claiming-a-prize): the claim form starts from it.
  serve(router, CLAIM_ROUTES.deliveryAddress, signedIn, async ({ body }, ctx) => {
    const user = await updateDeliveryAddress(db, ctx.state.user!.id, body);
    return presentUser(user, await twoFactorStatus(deps, user));
  });

  serve(router, R.publicName, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await publicNameOf(db, ctx.state.user!.id);
  });

  serve(router, R.setPublicName, signedIn, async ({ body }, ctx) => {
    return await setPublicName({ db, events }, ctx.state.user!.id, body);
  });

  serve(router, R.preferences, signedIn, async ({ body: { marketingEmails } }, ctx) => {
    return presentPreferences(await setMarketingConsent({ db, events }, ctx.state.user!.id, marketingEmails));
  });
}
