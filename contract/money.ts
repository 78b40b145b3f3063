// Money is integer pence everywhere inside the system; pounds appear only at the API edge
// (the spec's ticketPrice 2.99) and on screen.

/** 299 -> 2.99. Exact for any integer number of pence. */
export const penceToPounds = (pence: number): number => Math.round(pence) / 100;

/** 2.99 -> 299. Rounds to the nearest penny so 0.1 + 0.2 style float noise cannot leak in. */
export const poundsToPence = (pounds: number): number => Math.round(pounds * 100);

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 299 -> '£2.99' (en-GB, always two decimals). */
export const formatPence = (pence: number): string => gbp.format(pence / 100);

/** 2.99 -> '£2.99'. */
export const formatPounds = (pounds: number): string => gbp.format(pounds);

/**
 * Site credit can be used only when the cart total is at least this (docs/product.md#checkout).
 * Here rather than in checkout.ts, so the promo banner on every page need not load checkout's
 * schemas (docs/performance.md#first-load).
 */
export const CREDIT_MINIMUM_SPEND_PENCE = 500;
export const CREDIT_MINIMUM_MESSAGE = 'Minimum spend of £5.00 required to use site credit';
