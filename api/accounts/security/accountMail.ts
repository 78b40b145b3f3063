import type { AppDeps } from '../../platform/context';
import type { EmailTemplate, Recipient } from '../../platform/email/template';

// Sending the account e-mails (templates in api/platform/email/templates/accounts.tsx): links on
// the site's public origin, and a failed send logged rather than undoing what the customer did
// (the link can be sent again).

export type AccountMailDeps = Pick<AppDeps, 'mailer' | 'logger' | 'config'>;

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

export async function sendAccountEmail<P>(
  deps: AccountMailDeps,
  template: EmailTemplate<P>,
  to: Recipient,
  props: P,
): Promise<void> {
  try {
    await deps.mailer.send(template, to, props);
  } catch (err) {
    deps.logger.error({ err, template: template.name }, 'account e-mail not sent');
  }
}

/** How an e-mail greets the customer. */
export const greetingName = (u: { firstName: string | null; username: string }) =>
  u.firstName?.trim() || u.username;
