import type { Router } from '@koa/router';
import { MailLogQuerySchema } from '../../../contract/admin';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { recentEmails } from '../../platform/email/mailLog';
import { presentMailLogEntry } from '../../platform/email/presenter';

/** /admin/emails, 'E-mails sent': the mail log, so an operator can answer "I never got my e-mail". */
export function registerAdminEmailRoutes(router: Router, { db, config }: AppDeps): void {
  router.get('/api/admin/emails', requireAdmin({ db, config }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { search } = parse(MailLogQuerySchema, ctx.query);
    ctx.body = (await recentEmails(db, search)).map(presentMailLogEntry);
  });
}
