import type { PublicCompetition } from '../../contract/competitions';
import { formatUkDateTime } from '../../contract/londonTime';
import { scriptJson } from '../../contract/pageSeed';

// What a shared link shows (docs/product.md#link-previews): Open Graph and Twitter card tags, the
// canonical URL and a JSON-LD Product with its Offer, in the <head> of the pages the server renders.

const escapeAttr = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const meta = (attr: 'property' | 'name', key: string, value: string) =>
  `<meta ${attr}="${key}" content="${escapeAttr(value)}" />`;

/** The 1200×630 picture a competition's link shows (api/pages/shareImage.ts). */
export const shareImagePath = (id: number) => `/api/competitions/${id}/share-image.jpg`;

/** The head tags of a competition's page; `origin` is PUBLIC_URL without its trailing slash. */
export function competitionHead(
  c: PublicCompetition,
  origin: string,
  siteName: string,
  page: 'competition' | 'draw room' = 'competition',
): string {
  const url = `${origin}/competitions/${c.id}${page === 'draw room' ? '/draw' : ''}`;
  const price = c.ticketPrice.toFixed(2);
  const description = `${c.description} £${price} a ticket, ${c.totalTickets.toLocaleString('en-GB')} tickets. Closes ${formatUkDateTime(c.endDate)}.`;
  const image = `${origin}${shareImagePath(c.id)}`;
  const open = c.status === 'active' && c.ticketsSold < c.totalTickets && Date.parse(c.endDate) > Date.now();
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: c.title,
    description: c.description,
    image,
    url,
    offers: {
      '@type': 'Offer',
      price,
      priceCurrency: 'GBP',
      availability: open ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      validThrough: c.endDate,
      url,
    },
  };
  return [
    `<link rel="canonical" href="${escapeAttr(url)}" />`,
    meta('property', 'og:type', 'product'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', c.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', '1200'),
    meta('property', 'og:image:height', '630'),
    meta('property', 'og:image:alt', c.title),
    meta('property', 'product:price:amount', price),
    meta('property', 'product:price:currency', 'GBP'),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', c.title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    // JSON in a script: every '<' escaped, so a title cannot close the script.
    `<script type="application/ld+json">${scriptJson(product)}</script>`,
  ].join('');
}

/** The home page's head tags. */
export function homeHead(origin: string, siteName: string, description: string): string {
  const url = `${origin}/`;
  const image = `${origin}/api/share-image.jpg`;
  return [
    `<link rel="canonical" href="${escapeAttr(url)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', siteName),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', '1200'),
    meta('property', 'og:image:height', '630'),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', siteName),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
  ].join('');
}
