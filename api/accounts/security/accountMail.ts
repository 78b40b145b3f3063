import type { AppDeps } from '../../platform/context';
import type { AccountEmail, MailSite } from '../accountEmails';

// Sending the account e-mails: links on the site's public origin, and a failed send logged
// rather than undoing what the customer did (the link can be sent again).

export type AccountMailDeps = Pick<AppDeps, 'mailer' | 'logger' | 'config'>;

export const siteOf = ({ config }: AccountMailDeps): MailSite => ({
  siteName: config.siteName,
  supportEmail: config.supportEmail,
});

/** An absolute link to a page of the site, e.g. linkTo(deps, '/reset-password', { token }). */
export function linkTo(
  { config }: AccountMailDeps,
  path: string,
  query: Record<string, string> = {},
): string {
  const url = new URL(path, config.publicUrl);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

export async function sendAccountEmail(
  deps: AccountMailDeps,
  to: string,
  email: AccountEmail,
): Promise<void> {
  try {
    await deps.mailer.send({ to, ...email });
  } catch (err) {
    deps.logger.error({ err, subject: email.subject }, 'account e-mail not sent');
  }
}

/** How an e-mail greets the customer. */
export const greetingName = (u: { firstName: string | null; username: string }) =>
  u.firstName?.trim() || u.username;
