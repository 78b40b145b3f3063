import { render, toPlainText } from '@react-email/render';
import { EmailLayout } from './layout';
import type { Brand, EmailTemplate } from './template';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** The subject, the HTML part and the plain-text part (derived from the same HTML) of one e-mail. */
export async function renderEmail<P>(
  template: EmailTemplate<P>,
  props: P,
  brand: Brand,
): Promise<RenderedEmail> {
  const subject = template.subject(props, brand);
  const { Body } = template;
  const html = await render(
    <EmailLayout brand={brand} preview={subject} category={template.category}>
      <Body props={props} brand={brand} />
    </EmailLayout>,
  );
  return { subject, html, text: toPlainText(html) };
}
