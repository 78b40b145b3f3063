import { render, toPlainText } from '@react-email/render';
import { EmailLayout, siteUrl } from './layout';
import type { Brand, EmailTemplate } from './template';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** Extra headers: RFC 8058 one-click unsubscribe on a marketing e-mail. */
  headers?: Record<string, string>;
}

/** The subject, the HTML part and the plain-text part (derived from the same HTML) of one e-mail. */
export async function renderEmail<P>(
  template: EmailTemplate<P>,
  props: P,
  brand: Brand,
): Promise<RenderedEmail> {
  const subject = template.subject(props, brand);
  const { Body } = template;
  const unsubscribe = template.unsubscribeLink && siteUrl(brand, template.unsubscribeLink(props));
  const html = await render(
    <EmailLayout brand={brand} preview={subject} category={template.category} unsubscribe={unsubscribe}>
      <Body props={props} brand={brand} />
    </EmailLayout>,
  );
  const headers = unsubscribe
    ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : undefined;
  return { subject, html, text: toPlainText(html), ...(headers ? { headers } : {}) };
}
