import type { Knex } from 'knex';
import { newDrawSeed } from '../../api/catalogue/drawSeed';
import { EventBus } from '../../api/platform/events';
import { inUnitOfWork } from '../../api/platform/unitOfWork';
import { recordTicketChange } from '../../api/tickets/competitionVersions';
import { sellNumbers } from '../../api/tickets/selling/sellNumbers';

// Direct inserts for arranging test data quickly. They write exactly the rows the services
// would, so the API under test reads them like any other data; a sale goes through the services'
// own selling rule.

let sequence = 0;
const now = () => Date.now();

export interface CompetitionFixture {
  title?: string;
  description?: string;
  ticketPricePence?: number;
  totalTickets?: number;
  status?: 'active' | 'archived' | 'ended';
  autoWin?: boolean;
  category?: string | null;
  createdAt?: number;
  endDate?: number;
}

export async function insertCompetition(db: Knex, f: CompetitionFixture = {}): Promise<number> {
  sequence++;
  const createdAt = f.createdAt ?? now() - sequence * 1000;
  const [id] = await db('competitions').insert({
    title: f.title ?? `Test competition ${sequence}`,
    description: f.description ?? 'A test prize',
    image: '/images/competitions/other.svg',
    ticketPricePence: f.ticketPricePence ?? 100,
    totalTickets: f.totalTickets ?? 100,
    ticketsSold: 0,
    ...newDrawSeed(),
    endDate: f.endDate ?? now() + 7 * 86_400_000,
    autoWin: f.autoWin ?? false,
    status: f.status ?? 'active',
    features: JSON.stringify([]),
    details: JSON.stringify(f.category === null ? {} : { category: f.category ?? 'Cash' }),
    createdAt,
    updatedAt: createdAt,
    // Open or closed: announced when it opened, as every competition on sale is (migration 041).
    openedAt: ['active', 'ended'].includes(f.status ?? 'active') ? createdAt : null,
  });
  return Number(id);
}

export interface UserFixture {
  username?: string;
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: 'user' | 'admin';
  /** YYYY-MM-DD, or null for an account made before dates of birth were asked. */
  dateOfBirth?: string | null;
}

export async function insertUser(db: Knex, f: UserFixture = {}): Promise<number> {
  sequence++;
  const username = f.username ?? `user${sequence}`;
  const [id] = await db('users').insert({
    username,
    email: f.email ?? `${username}@example.com`,
    // Not a usable hash: these users never log in.
    passwordHash: 'scrypt$disabled',
    firstName: f.firstName === undefined ? 'Test' : f.firstName,
    lastName: f.lastName === undefined ? 'User' : f.lastName,
    phoneNumber: '07700900000',
    dateOfBirth: f.dateOfBirth === undefined ? '1990-04-01' : f.dateOfBirth,
    role: f.role ?? 'user',
    siteCreditPence: 0,
    createdAt: now(),
    updatedAt: now(),
  });
  return Number(id);
}

/**
 * A completed order of `numbers` for the user, sold by the application's own rule (sellNumbers):
 * sold rows, history, ticketsSold, an auto-win close and the version bump. Its events go to a bus
 * of its own: nothing watches a fixture's sale.
 */
export async function sellTickets(db: Knex, competitionId: number, userId: number, numbers: number[]) {
  const t = now();
  return inUnitOfWork({ db, events: new EventBus() }, async (uow) => {
    const [orderId] = await uow.trx('orders').insert({
      userId,
      totalPence: 100 * numbers.length,
      subtotalPence: 100 * numbers.length,
      status: 'completed',
      paymentProvider: 'test',
      createdAt: t,
      updatedAt: t,
    });
    const competition = (await uow
      .trx('competitions')
      .where({ id: competitionId })
      .first('id', 'autoWin', 'totalTickets')) as { id: number; autoWin: boolean; totalTickets: number };
    const buyer = { orderId: Number(orderId), userId, guestId: null };
    await recordTicketChange(uow, await sellNumbers(uow.trx, { competition, buyer, free: numbers }, t));
    return Number(orderId);
  });
}

/** A cart item holding `numbers` until `expiresAt`. */
export async function holdTickets(db: Knex, competitionId: number, numbers: number[], expiresAt: number) {
  const t = now();
  const [cartItemId] = await db('cartItems').insert({
    guestId: 'guest-test',
    competitionId,
    quantity: numbers.length,
    selectedNumbers: JSON.stringify(numbers),
    reservedAt: t,
    expiresAt,
    createdAt: t,
    updatedAt: t,
  });
  await db('tickets').insert(
    numbers.map((number) => ({
      competitionId,
      number,
      status: 'reserved',
      cartItemId,
      guestId: 'guest-test',
      expiresAt,
      createdAt: t,
      updatedAt: t,
    })),
  );
  return Number(cartItemId);
}

export interface PromoFixture {
  name?: string;
  creditAmountPence?: number;
  targetUserType?: 'new_user' | 'all';
  isActive?: boolean;
  autoApply?: boolean;
  validFrom?: number;
  validUntil?: number | null;
  maxUsesPerUser?: number;
  totalMaxUses?: number | null;
  currentUses?: number;
}

export async function insertPromo(db: Knex, f: PromoFixture = {}): Promise<number> {
  const t = now();
  const [id] = await db('promoConfigs').insert({
    name: f.name ?? 'New User Welcome Credit',
    description: 'Welcome credit',
    creditAmountPence: f.creditAmountPence ?? 500,
    targetUserType: f.targetUserType ?? 'new_user',
    isActive: f.isActive ?? true,
    autoApply: f.autoApply ?? true,
    validFrom: f.validFrom ?? t - 60_000,
    validUntil: f.validUntil === undefined ? null : f.validUntil,
    maxUsesPerUser: f.maxUsesPerUser ?? 1,
    totalMaxUses: f.totalMaxUses === undefined ? 1000 : f.totalMaxUses,
    currentUses: f.currentUses ?? 0,
    createdAt: t,
    updatedAt: t,
  });
  return Number(id);
}
