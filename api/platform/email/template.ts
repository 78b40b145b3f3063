import type { ReactElement } from 'react';
import type { Promoter } from '../../../contract/promoter';

/**
 * What every e-mail knows about the site: from SITE_NAME, SUPPORT_EMAIL and PUBLIC_URL, and the
 * promoter as Site Settings name it when the e-mail is sent (the layout's foot names it).
 */
export interface Brand {
  siteName: string;
  supportEmail: string;
  publicUrl: string;
  promoter?: Promoter;
}

/**
 * 'marketing' e-mails go only to customers who opted in (the guard in the mailer); everything a
 * customer's own action or order causes is 'transactional'.
 */
export type EmailCategory = 'transactional' | 'marketing';

/** One kind of e-mail: its name in the mail log, its subject and its body inside the layout. */
export interface EmailTemplate<P> {
  name: string;
  category: EmailCategory;
  subject: (props: P, brand: Brand) => string;
  /** The content between the layout's header and footer. */
  Body: (props: { props: P; brand: Brand }) => ReactElement;
  /**
   * A marketing e-mail's signed one-click unsubscribe link (a site path): the layout's foot links it,
   * and the mailer adds the RFC 8058 headers `List-Unsubscribe` and `List-Unsubscribe-Post`.
   */
  unsubscribeLink?: (props: P) => string;
}

/** Who an e-mail goes to: the address, and the account when there is one (for consent and the log). */
export interface Recipient {
  to: string;
  userId?: number | null;
}

export const defineEmail = <P>(template: EmailTemplate<P>): EmailTemplate<P> => template;
