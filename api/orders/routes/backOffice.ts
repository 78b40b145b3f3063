import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { ADMIN_BACK_OFFICE_ROUTES as A } from '../../../contract/apiAdminBackOffice';
import type { CustomerView } from '../../../contract/backOffice';
import { penceToPounds, poundsToPence } from '../../../contract/money';
import { presentAdminUser, presentCreditTransaction } from '../../accounts/presenter';
import { twoFactorStatus, usersWithTwoFactor } from '../../accounts/twoFactor';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { PaymentGateway } from '../../payments';
import type { AppDeps } from '../../platform/context';
import { addNote, adjustCredit, searchCustomers } from '../backOffice/customerCare';
import { customerRecord } from '../backOffice/customerView';
import { exportLiveCompetitionsCsv, exportOrdersCsv } from '../backOffice/exports';
import { refundTickets } from '../backOffice/partialRefund';
import { presentAdminOrder } from '../presenter';

/** The customer view (/admin/users/:id), its credit adjustments and notes, refunds of some tickets, the CSV exports. */
export function registerBackOfficeRoutes(router: Router, deps: AppDeps, gateway: PaymentGateway): void {
  const { db, events, config, logger } = deps;
  const admin = requireAdmin({ db, config });

  const view = async (userId: number): Promise<CustomerView> => {
    const now = Date.now();
    const r = await customerRecord(db, userId, now);
    const twoFactor =
      r.user.role === 'admin'
        ? await twoFactorStatus(deps, r.user)
        : { enabled: (await usersWithTwoFactor(db, [r.user.id])).has(r.user.id), setupRequired: false };
    const user = presentAdminUser(r.user, twoFactor, now);
    return {
      user,
      creditBalance: penceToPounds(r.user.siteCreditPence),
      orders: r.orders.map(presentAdminOrder),
      entries: r.entries,
      ledger: r.ledger.map(presentCreditTransaction),
      notes: r.notes,
      protection: { spendLimits: r.spendLimits, selfExcludedUntil: user.selfExcludedUntil ?? null },
      referrals: r.referrals,
    };
  };

  serve(router, A.customers, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { users, ...paging } = await searchCustomers(db, input.query);
    const withTwoFactor = await usersWithTwoFactor(
      db,
      users.map((u) => u.id),
    );
    const now = Date.now();
    return {
      customers: users.map((u) =>
        presentAdminUser(u, { enabled: withTwoFactor.has(u.id), setupRequired: false }, now),
      ),
      ...paging,
    };
  });

  serve(router, A.customer, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await view(input.params.userId);
  });

  serve(router, A.adjustCredit, admin, async ({ params: { userId }, body }, ctx) => {
    const change = { amountPence: poundsToPence(body.amount), reason: body.reason };
    await adjustCredit({ db, events }, actorOf(ctx), userId, change);
    return await view(userId);
  });

  serve(router, A.addNote, admin, async ({ params: { userId }, body }, ctx) => {
    return await addNote({ db, events }, actorOf(ctx), userId, body.text);
  });

  serve(router, A.refundTickets, admin, async ({ params: { id }, body }, ctx) => {
    const done = await refundTickets(
      { db, events, logger, gateway, faults: deps.faults },
      actorOf(ctx),
      id,
      body,
    );
    return {
      message: done.message,
      refund: done.refund,
      amount: penceToPounds(done.amountPence),
      numbers: done.numbers,
    };
  });

  const download = (ctx: Context, file: { filename: string; csv: string }) => {
    ctx.set('Content-Disposition', `attachment; filename="${file.filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = file.csv;
  };
  serve(router, A.ordersCsv, admin, async (_input, ctx) => download(ctx, await exportOrdersCsv(db)));
  serve(router, A.liveCompetitionsCsv, admin, async (_input, ctx) =>
    download(ctx, await exportLiveCompetitionsCsv(db)),
  );
}
