import type { DrawBeacon } from '../../contract/beacon';
import { bundlesToOffers } from '../../contract/bundles';
import { deriveCategory } from '../../contract/categories';
import type { CompetitionEntry, PublicCompetition } from '../../contract/competitions';
import { iso } from '../../contract/dates';
import type { PublicDraw } from '../../contract/draw';
import { galleryOf } from '../../contract/gallery';
import { minimumSalesOf } from '../../contract/minimumSales';
import { penceToPounds } from '../../contract/money';
import { prizesOnShow } from '../../contract/prizes';
import { ANONYMOUS_NAME } from '../../contract/publicNames';
import type { Competition } from '../../db/models';

/** A sold ticket with its owner's name fields (null when the account is gone or unknown). */
export interface EntryRow {
  number: number;
  userId: number | null;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  deletedAt: number | null;
  /** The owner's public-name choice (migration 045); absent on rows read before it. */
  publicNameMode?: string | null;
  nickname?: string | null;
  /** A postal entry without an account: the name on the postcard and its entrant's e-mail key. */
  postalName?: string | null;
  postalKey?: string | null;
}

/** The account fields a public name is made from. */
export type PublicNameFields = Pick<
  EntryRow,
  'firstName' | 'lastName' | 'username' | 'deletedAt' | 'publicNameMode' | 'nickname'
>;

/**
 * How a ticket holder is shown in public, the one rule for every place a name is published
 * (docs/product.md#public-names-and-winner-stories): their nickname or "Anonymous" when they chose
 * one, else first name and last initial ("Sarah T."), never an email. Without a first name the
 * username is used unless it looks like an email address.
 */
export function publicOwnerName(o: PublicNameFields): string {
  if (o.deletedAt) return 'Former entrant';
  if (o.publicNameMode === 'anonymous') return ANONYMOUS_NAME;
  const nickname = o.nickname?.trim();
  if (o.publicNameMode === 'nickname' && nickname) return nickname;
  const first = o.firstName?.trim();
  if (first) {
    const initial = o.lastName?.trim().charAt(0).toUpperCase();
    return initial ? `${first} ${initial}.` : first;
  }
  const username = o.username?.trim();
  return username && !username.includes('@') ? username : 'Entrant';
}

/** The name on a postcard as it is published: its first word and the last word's initial. */
export function postcardOwnerName(name: string): string {
  const parts = name.trim().split(/\s+/);
  return publicOwnerName({
    firstName: parts[0] ?? null,
    lastName: parts.length > 1 ? parts[parts.length - 1]! : null,
    username: null,
    deletedAt: null,
    publicNameMode: null,
    nickname: null,
  });
}

/** Sold numbers grouped by owner: most tickets first, numbers ascending (rows come sorted by number). */
export function presentEntries(rows: EntryRow[]): CompetitionEntry[] {
  const byOwner = new Map<string, CompetitionEntry>();
  for (const row of rows) {
    // A postal entrant without an account is shown by the postcard's name, grouped by e-mail.
    const postal = row.userId === null && row.postalName ? row.postalName : null;
    const key = row.userId !== null ? String(row.userId) : postal ? `postal:${row.postalKey}` : 'unknown';
    let entry = byOwner.get(key);
    if (!entry) {
      const ownerName = postal ? postcardOwnerName(postal) : publicOwnerName(row);
      entry = { ownerName, ticketNumbers: [] };
      byOwner.set(key, entry);
    }
    entry.ticketNumbers.push(row.number);
  }
  return [...byOwner.values()].sort(
    (a, b) => b.ticketNumbers.length - a.ticketNumbers.length || a.ownerName.localeCompare(b.ownerName),
  );
}

/** The draw's beacon round once fixed, with its randomness and signature once drawn. */
export function presentDrawBeacon(c: Competition): DrawBeacon | null {
  if (!c.drawBeaconRound || !c.drawBeaconChain || !c.drawBeaconPublicKey || !c.drawBeaconDueAt) return null;
  return {
    chain: c.drawBeaconChain,
    round: Number(c.drawBeaconRound),
    dueAt: iso(c.drawBeaconDueAt),
    publicKey: c.drawBeaconPublicKey,
    ...(c.drawBeaconRandomness && c.drawBeaconSignature
      ? { randomness: c.drawBeaconRandomness, signature: c.drawBeaconSignature }
      : {}),
    // What the round follows from (a round fixed before migration 030 has none).
    ...(c.drawEntriesFinalAt != null && c.drawBeaconDelayMs != null
      ? { entriesFinalAt: iso(c.drawEntriesFinalAt), delaySeconds: Number(c.drawBeaconDelayMs) / 1000 }
      : {}),
    ...(c.drawBeaconGenesis != null && c.drawBeaconPeriod != null
      ? { genesisTime: Number(c.drawBeaconGenesis), period: Number(c.drawBeaconPeriod) }
      : {}),
  };
}

/**
 * The public shape: pounds instead of pence, ISO dates, derived category; nothing internal (the
 * draw seed only inside `draw`, after the draw). `draw` is included when the caller looked it up.
 * `defaultCap` is the site's per-person cap, shown for a competition without its own.
 */
export function presentCompetition(
  c: Competition,
  defaultCap: number,
  draw?: PublicDraw | null,
  instantWins?: Pick<PublicCompetition, 'instantWins' | 'instantWinReveal'>,
): PublicCompetition {
  const details = {
    ...(c.details?.category ? { category: c.details.category } : {}),
    ...(c.details?.productName ? { productName: c.details.productName } : {}),
  };
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    image: c.image,
    images: galleryOf(c),
    createdAt: iso(c.createdAt),
    startsAt: c.startsAt === null || c.startsAt === undefined ? null : iso(Number(c.startsAt)),
    endDate: iso(c.endDate),
    ticketPrice: penceToPounds(c.ticketPricePence),
    bundles: bundlesToOffers(c.bundles),
    ticketsSold: c.ticketsSold,
    totalTickets: c.totalTickets,
    autoWin: c.autoWin,
    status: c.status,
    features: Array.isArray(c.features) ? c.features : [],
    details,
    category: deriveCategory({ title: c.title, description: c.description, details }),
    cashAlternative: c.cashAlternativePence === null ? null : penceToPounds(c.cashAlternativePence),
    maxTicketsPerUser: c.maxTicketsPerUser ?? defaultCap,
    drawCommitment: c.drawCommitment ?? '',
    drawBeacon: presentDrawBeacon(c),
    prizes: prizesOnShow(c),
    ...(draw === undefined ? {} : { draw }),
    instantWinCommitment: c.instantWinCommitment ?? null,
    ...instantWins,
    ...minimumSalesOf(c),
  };
}
