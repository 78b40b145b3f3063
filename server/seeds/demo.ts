import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../../api/accounts/passwords';
import { newDrawSeed } from '../../api/catalogue/drawSeed';
import { commitIfOpen, replaceInstantWins } from '../../api/catalogue/instantWins/list';
import { SITE_SETTINGS } from '../../contract/siteSettings';
import { seedClaimedPrize } from './demoClaims';
import { DEMO_COMPETITIONS, type SeedCompetition, seedCreatedAt, seedEndDate } from './demoCompetitions';
import { seedPostalWinnerDraw } from './demoPostalWinner';
import { seedPromoterAndCharities } from './demoPromoter';
import { insertSale, SEED_CARDS } from './demoSales';
import { pickDistinct, seededRandom } from './random';

export const DEMO_CUSTOMER = {
  username: 'demo',
  password: 'demo1234',
  email: 'demo@westcountryprizes.co.uk',
};
export const WELCOME_PROMO_NAME = 'New User Welcome Credit';
const POSTAL_ADDRESS_KEY = SITE_SETTINGS.postalAddress.fields.postalAddress.key;
/** A demo address (Royal Mail's example postcode area for Truro), never a real business. */
export const DEMO_POSTAL_ADDRESS = 'Westcountry Prizes Postal Entries\nPO Box 1234\nTruro\nTR1 9ZZ';

// Customers who already hold tickets, so grids and entry lists are not empty. Their passwords are
// random and never printed: they exist to own entries, not to log in.
const ENTRANTS = [
  ['sarah.trelawny', 'Sarah', 'Trelawny'],
  ['james.penrose', 'James', 'Penrose'],
  ['emily.carne', 'Emily', 'Carne'],
  ['tom.hocking', 'Tom', 'Hocking'],
  ['lucy.pascoe', 'Lucy', 'Pascoe'],
  ['harry.nancarrow', 'Harry', 'Nancarrow'],
] as const;

export interface SeedOptions {
  adminUsername: string;
  adminPassword: string;
  now?: number;
}

export interface SeedSummary {
  usersCreated: number;
  competitionsCreated: number;
  ticketsSold: number;
}

interface NewUser {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: 'user' | 'admin';
  phoneNumber: string;
  /** YYYY-MM-DD: every entrant is 18 or over (docs/product.md#age-checks). */
  dateOfBirth: string;
}

async function ensureUsers(trx: Knex.Transaction, users: NewUser[], now: number) {
  const ids = new Map<string, number>();
  let created = 0;
  for (const u of users) {
    const existing = await trx('users')
      .whereRaw('lower(username) = ?', [u.username.toLowerCase()])
      .first('id');
    if (existing) {
      ids.set(u.username, existing.id);
      continue;
    }
    const [id] = await trx('users').insert({
      username: u.username,
      email: u.email,
      passwordHash: await hashPassword(u.password),
      firstName: u.firstName,
      lastName: u.lastName,
      phoneNumber: u.phoneNumber,
      dateOfBirth: u.dateOfBirth,
      role: u.role,
      siteCreditPence: 0,
      // Demo accounts stand for established customers, whose addresses are confirmed.
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    ids.set(u.username, Number(id));
    created++;
  }
  return { ids, created };
}

/** Inserts one competition and its sales: orders of 1-10 tickets spread over the entrants. */
async function createCompetition(trx: Knex.Transaction, c: SeedCompetition, buyers: number[], now: number) {
  const createdAt = seedCreatedAt(now, c);
  const [rawId] = await trx('competitions').insert({
    title: c.title,
    description: c.description,
    image: c.image,
    ticketPricePence: c.ticketPricePence,
    totalTickets: c.totalTickets,
    ticketsSold: 0,
    ...newDrawSeed(),
    endDate: seedEndDate(now, c),
    autoWin: c.autoWin,
    status: c.status,
    features: JSON.stringify(c.features),
    details: JSON.stringify({
      category: c.category,
      ...(c.productName ? { productName: c.productName } : {}),
    }),
    prizeValuePence: c.prizeValuePence ?? null,
    cashAlternativePence: c.cashAlternativePence ?? null,
    mainPrizes: c.prizes ? JSON.stringify(c.prizes) : null,
    ...(c.minimum
      ? {
          minTicketsSold: c.minimum.tickets,
          extendByDays: c.minimum.extendByDays,
          maxExtensions: c.minimum.maxExtensions,
        }
      : {}),
    createdAt,
    updatedAt: createdAt,
  });
  const competitionId = Number(rawId);
  if (c.instantWins) {
    // Fixed and committed before the seeded sales, which then win them as real sales would.
    await replaceInstantWins(trx, competitionId, c.totalTickets, c.instantWins, createdAt);
    await commitIfOpen(trx, competitionId);
  }
  const random = seededRandom(c.title);
  const numbers = pickDistinct(random, c.totalTickets, c.sold);
  const tickets: Record<string, unknown>[] = [];
  let orders = 0;
  for (let i = 0; i < numbers.length; ) {
    const quantity = Math.min(1 + Math.floor(random() * 10), numbers.length - i);
    const bought = numbers.slice(i, i + quantity).sort((a, b) => a - b);
    i += quantity;
    const userId = buyers[Math.floor(random() * buyers.length)]!;
    const paidAt = createdAt + Math.floor(random() * Math.max(1, now - createdAt));
    tickets.push(
      ...(await insertSale(trx, {
        competitionId,
        c,
        userId,
        numbers: bought,
        paidAt,
        card: SEED_CARDS[orders % SEED_CARDS.length],
      })),
    );
    orders++;
  }
  await trx.batchInsert('tickets', tickets, 500);
  // ticketsSold equals the number of sold rows; the version counts the ticket changes made.
  await trx('competitions').where({ id: competitionId }).update({ ticketsSold: tickets.length });
  await trx('competitionVersions').insert({ competitionId, version: orders });
  return tickets.length;
}

/**
 * Demo data for a laptop or a review: idempotent (users by username, competitions by title,
 * the promo by name), so it can run on every first start and again by `npm run db:seed`.
 */
export async function seedDemoData(db: Knex, options: SeedOptions): Promise<SeedSummary> {
  const now = options.now ?? Date.now();
  const phone = (i: number) => `07700 900${String(100 + i).padStart(3, '0')}`;
  // Adults born 1960-1999, spread over the year: deterministic like the rest of the demo.
  const pad = (n: number) => String(n).padStart(2, '0');
  const dateOfBirth = (i: number) =>
    `${1960 + ((i * 7) % 40)}-${pad(1 + ((i * 5) % 12))}-${pad(1 + ((i * 11) % 28))}`;
  const users: NewUser[] = [
    {
      username: options.adminUsername,
      email: 'admin@westcountryprizes.co.uk',
      password: options.adminPassword,
      firstName: 'Site',
      lastName: 'Admin',
      role: 'admin',
      phoneNumber: phone(0),
      dateOfBirth: dateOfBirth(0),
    },
    {
      ...DEMO_CUSTOMER,
      firstName: 'Demo',
      lastName: 'Customer',
      role: 'user',
      phoneNumber: phone(1),
      dateOfBirth: dateOfBirth(1),
    },
    ...ENTRANTS.map(([username, firstName, lastName], i) => ({
      username,
      email: `${username}@example.co.uk`,
      password: randomBytes(18).toString('base64url'),
      firstName,
      lastName,
      role: 'user' as const,
      phoneNumber: phone(2 + i),
      dateOfBirth: dateOfBirth(2 + i),
    })),
  ];

  return db.transaction(async (trx) => {
    const { ids, created } = await ensureUsers(trx, users, now);
    const buyers = [DEMO_CUSTOMER.username, ...ENTRANTS.map(([u]) => u)].map((u) => ids.get(u)!);

    const promo = await trx('promoConfigs').where({ name: WELCOME_PROMO_NAME }).first('id');
    if (!promo) {
      await trx('promoConfigs').insert({
        name: WELCOME_PROMO_NAME,
        description: 'Get £5.00 site credit free when you sign up. One per person, new accounts only.',
        creditAmountPence: 500,
        targetUserType: 'new_user',
        isActive: true,
        // Open-ended so the demo keeps working: the banner then states no end date.
        validFrom: now - 24 * 60 * 60 * 1000,
        validUntil: null,
        maxUsesPerUser: 1,
        totalMaxUses: 1000,
        currentUses: 0,
        autoApply: true,
        createdAt: now,
        updatedAt: now,
      });
    }

    // Where free postal entries go (Site Settings), so the Terms and competition pages show one.
    if (!(await trx('siteSettings').where({ key: POSTAL_ADDRESS_KEY }).first('id'))) {
      await trx('siteSettings').insert({
        key: POSTAL_ADDRESS_KEY,
        value: DEMO_POSTAL_ADDRESS,
        createdAt: now,
        updatedAt: now,
      });
    }

    // The promoter and the charities: the demo's active competitions need the promoter named.
    await seedPromoterAndCharities(trx, now);

    let competitionsCreated = 0;
    let ticketsSold = 0;
    for (const c of DEMO_COMPETITIONS) {
      if (await trx('competitions').where({ title: c.title }).first('id')) continue;
      ticketsSold += await createCompetition(trx, c, buyers, now);
      competitionsCreated++;
    }
    // A winner who has claimed their prize, for the claim page and the admin's winner panel.
    await seedClaimedPrize(trx, ids.get(ENTRANTS[0][0])!, now);
    // A drawn competition whose 3rd prize went to a postcard.
    const adminId = ids.get(options.adminUsername)!;
    const adminUsername = options.adminUsername;
    const postalDraw = await seedPostalWinnerDraw(trx, { buyers, adminId, adminUsername }, now);
    ticketsSold += postalDraw;
    if (postalDraw) competitionsCreated++;
    return { usersCreated: created, competitionsCreated, ticketsSold };
  });
}
