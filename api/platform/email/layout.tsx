import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import type { ReactNode } from 'react';
import type { Promoter } from '../../../contract/promoter';
import type { Brand, EmailCategory } from './template';

// The one layout every e-mail shares: the site's name on top, the content, then the support
// address, the promoter (name, company number, address, phone, e-mail) and the site's address at
// the foot. Inline styles only: mail clients ignore <style>.

const styles = {
  body: { backgroundColor: '#f4f5f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#1a1a1a' },
  container: { backgroundColor: '#ffffff', margin: '24px auto', padding: '24px', maxWidth: '560px' },
  brand: { color: '#0b3d5c', fontSize: '22px', margin: '0 0 16px' },
  text: { fontSize: '15px', lineHeight: '22px', margin: '0 0 12px' },
  button: {
    backgroundColor: '#0b3d5c',
    color: '#ffffff',
    padding: '12px 20px',
    borderRadius: '4px',
    fontWeight: 'bold',
    textDecoration: 'none',
  },
  foot: { fontSize: '12px', lineHeight: '18px', color: '#5f6b76', margin: '0 0 6px' },
} as const;

/** A path on the site ('/profile') as an absolute link; absolute URLs pass through. */
export const siteUrl = (brand: Brand, link: string) =>
  /^https?:\/\//.test(link) ? link : `${brand.publicUrl.replace(/\/+$/, '')}/${link.replace(/^\/+/, '')}`;

export function EmailLayout({
  brand,
  preview,
  category,
  unsubscribe,
  children,
}: {
  brand: Brand;
  preview: string;
  category: EmailCategory;
  /** A marketing e-mail's absolute one-click unsubscribe link. */
  unsubscribe?: string | undefined;
  children: ReactNode;
}) {
  return (
    <Html lang="en-GB">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Heading as="h1" style={styles.brand}>
            {brand.siteName}
          </Heading>
          {children}
          <Hr />
          <Text style={styles.foot}>
            Questions? Write to us at <Link href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</Link>.
          </Text>
          {category === 'marketing' && (
            <Text style={styles.foot}>
              You receive this because you chose to hear about offers.{' '}
              {unsubscribe ? (
                <>
                  <Link href={unsubscribe}>Unsubscribe</Link> in one click, or untick it under Privacy in{' '}
                </>
              ) : (
                'To stop, untick it under Privacy in '
              )}
              <Link href={siteUrl(brand, '/profile')}>My Account</Link>.
            </Text>
          )}
          {brand.promoter?.name && <PromoterFoot promoter={brand.promoter} />}
          <Text style={styles.foot}>
            {brand.siteName} · <Link href={brand.publicUrl}>{brand.publicUrl}</Link>
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** The promoter, as the law asks every message to name it. */
function PromoterFoot({ promoter }: { promoter: Promoter }) {
  const { name, companyNumber, address, phone, email } = promoter;
  return (
    <Text style={styles.foot}>
      {[
        `Promoter: ${name}`,
        companyNumber && `Company number ${companyNumber}`,
        address?.replace(/\s*\n\s*/g, ', '),
        phone && `Phone ${phone}`,
        email,
      ]
        .filter(Boolean)
        .join(' · ')}
    </Text>
  );
}

/** A paragraph in the house style. */
export const P = ({ children }: { children: ReactNode }) => <Text style={styles.text}>{children}</Text>;

/** The e-mail's main action: a button, with the address written out for clients that hide it. */
export function Action({ href, label }: { href: string; label: string }) {
  return (
    <Section style={{ margin: '20px 0' }}>
      <Button href={href} style={styles.button}>
        {label}
      </Button>
      <Text style={styles.foot}>
        Or paste this address into your browser: <Link href={href}>{href}</Link>
      </Text>
    </Section>
  );
}

/** Label and value lines (order number, date, amounts). */
export function Facts({ rows }: { rows: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <Section style={{ margin: '12px 0' }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ ...styles.text, margin: '0 0 4px' }}>
          <strong>{label}:</strong> {value}
        </Text>
      ))}
    </Section>
  );
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/London',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });

/** UK date and time, as on the site ('23 November 2026 at 14:05'). */
export const ukDateTime = (at: Date | number) => dateTime.format(new Date(Number(at)));
export const ukDate = (at: Date | number) => dateOnly.format(new Date(Number(at)));
