import type { Router } from '@koa/router';
import { ADMIN_ACCOUNT_ROUTES as A } from '../../../contract/apiAdminAccounts';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { recentEmails } from '../../platform/email/mailLog';
import { presentMailLogEntry } from '../../platform/email/presenter';

/** /admin/emails, 'E-mails sent': the mail log, so an operator can answer "I never got my e-mail". */
export function registerAdminEmailRoutes(router: Router, { db, config }: AppDeps): void {
  serve(router, A.mailLog, requireAdmin({ db, config }), async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { search } = input.query;
    return (await recentEmails(db, search)).map(presentMailLogEntry);
  });
}
