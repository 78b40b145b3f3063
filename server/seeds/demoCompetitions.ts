import type { CompetitionStatus } from '../../contract/competitions';
import type { InstantWinInput } from '../../contract/instantWins';
import type { MainPrize } from '../../contract/prizes';

const DAY = 24 * 60 * 60 * 1000;

export interface SeedCompetition {
  title: string;
  description: string;
  image: string;
  ticketPricePence: number;
  totalTickets: number;
  /** Days from seeding time; negative for a competition that has already closed. */
  endsInDays: number;
  /** Hour of day (UTC) of the draw. */
  drawHour: number;
  autoWin: boolean;
  status: CompetitionStatus;
  category: string;
  productName?: string;
  features: string[];
  /** How many tickets the seeded customers have already bought. */
  sold: number;
  /** Days before seeding that it opened (createdAt), which sets the listing order. */
  openedDaysAgo: number;
  /** Instant-win prizes (docs/draws.md#instant-wins), committed before the seeded sales. */
  instantWins?: InstantWinInput[];
  /** The stated prize value and cash alternative (pence); absent: not stated, none. */
  prizeValuePence?: number;
  cashAlternativePence?: number;
  /** Several main prizes, 1st first (docs/draws.md "Several prizes"); absent: one, the title. */
  prizes?: MainPrize[];
  /** A minimum to sell by the end date (docs/product.md#minimum-sales-and-cancellation). */
  minimum?: { tickets: number; extendByDays: number; maxExtensions: number };
}

const img = (name: string) => `/images/competitions/${name}.svg`;

// Every public category, both draw types, totals from 20 to 100,000, end dates over the coming weeks.
export const DEMO_COMPETITIONS: SeedCompetition[] = [
  {
    title: '£5,000 Tax-Free Cash',
    description: 'Five thousand pounds paid straight into your bank account the day after the live draw.',
    image: img('cash'),
    ticketPricePence: 199,
    totalTickets: 5000,
    endsInDays: 6,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Cash',
    features: [
      'Paid by bank transfer within 24 hours',
      'Drawn live on Facebook',
      'No cash alternative needed',
    ],
    sold: 1240,
    openedDaysAgo: 8,
    minimum: { tickets: 2500, extendByDays: 7, maxExtensions: 1 },
  },
  {
    title: '£250 Cash Quick Win',
    description: 'Only 20 tickets: the moment the last one sells, the winner is drawn automatically.',
    image: img('cash-2'),
    ticketPricePence: 49,
    totalTickets: 20,
    endsInDays: 21,
    drawHour: 19,
    autoWin: true,
    status: 'active',
    category: 'Cash',
    features: ['Drawn the moment it sells out', 'Just 20 entries'],
    sold: 7,
    openedDaysAgo: 2,
  },
  {
    title: 'PlayStation 5 Pro Bundle',
    description:
      'The latest console with two controllers and three blockbuster games, delivered to your door.',
    image: img('electronics'),
    ticketPricePence: 99,
    totalTickets: 1000,
    endsInDays: 14,
    drawHour: 20,
    autoWin: true,
    status: 'active',
    category: 'Electronics',
    productName: 'PlayStation 5 Pro',
    features: ['2 DualSense controllers', '3 games included', 'Free UK mainland delivery'],
    sold: 412,
    openedDaysAgo: 5,
  },
  {
    title: 'iPhone 17 Pro Max 512GB',
    description: 'The newest flagship smartphone in the colour of your choice, unlocked to any network.',
    image: img('electronics-2'),
    ticketPricePence: 149,
    totalTickets: 2500,
    endsInDays: 10,
    drawHour: 21,
    autoWin: false,
    status: 'active',
    category: 'Electronics',
    productName: 'iPhone 17 Pro Max',
    features: ['512GB storage', 'Unlocked', 'Brand new and boxed'],
    sold: 640,
    openedDaysAgo: 6,
  },
  {
    title: '65" OLED 4K Television Mega Draw',
    description:
      'Our biggest draw yet: one hundred thousand tickets at a tiny price for a cinema-grade OLED TV.',
    image: img('electronics-3'),
    ticketPricePence: 25,
    totalTickets: 100_000,
    endsInDays: 28,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Electronics',
    productName: '65-inch OLED TV',
    features: ['100,000 tickets', 'Wall bracket included', 'Free installation'],
    sold: 2350,
    openedDaysAgo: 3,
  },
  {
    title: 'Ninja Kitchen Appliance Bundle',
    description: 'Air fryer, blender and multi-cooker: everything a busy kitchen needs.',
    image: img('home'),
    ticketPricePence: 69,
    totalTickets: 500,
    endsInDays: 12,
    drawHour: 19,
    autoWin: true,
    status: 'active',
    category: 'Home',
    features: ['Three appliances', 'Two-year warranty'],
    sold: 188,
    openedDaysAgo: 7,
  },
  {
    title: 'Garden Hot Tub and BBQ Package',
    description: 'A six-person hot tub and a premium gas barbecue for summer evenings in the garden.',
    image: img('home-2'),
    ticketPricePence: 249,
    totalTickets: 3000,
    endsInDays: 18,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Home',
    features: ['Delivered and set up', 'Cash alternative £4,000'],
    sold: 530,
    openedDaysAgo: 10,
  },
  {
    title: 'LEGO Mega Builder Collection',
    description: 'Five of the biggest building sets for hours of creative fun.',
    image: img('toys'),
    ticketPricePence: 59,
    totalTickets: 300,
    endsInDays: 9,
    drawHour: 18,
    autoWin: true,
    status: 'active',
    category: 'Toys',
    features: ['Five sets', 'Ages 9 and up'],
    sold: 96,
    openedDaysAgo: 4,
  },
  {
    title: 'Family Theme Park Weekend',
    description: 'Two nights away for a family of four with fast-track passes to a top UK theme park.',
    image: img('family'),
    ticketPricePence: 129,
    totalTickets: 1500,
    endsInDays: 16,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Family',
    features: ['Family of four', 'Two nights hotel', 'Fast-track passes'],
    sold: 377,
    openedDaysAgo: 9,
  },
  {
    title: 'Designer Handbag and Trainers',
    description: 'A designer leather handbag plus a pair of limited-edition trainers.',
    image: img('fashion'),
    ticketPricePence: 199,
    totalTickets: 800,
    endsInDays: 11,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Fashion',
    features: ['Authenticity guaranteed', 'Choose your size'],
    sold: 205,
    openedDaysAgo: 6,
  },
  {
    title: 'Carbon Road Bike',
    description: 'A lightweight carbon road bike with electronic gearing, built and fitted for you.',
    image: img('sports'),
    ticketPricePence: 299,
    totalTickets: 2000,
    endsInDays: 24,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Sports',
    features: ['Professional bike fit', 'Electronic gearing'],
    sold: 310,
    openedDaysAgo: 12,
  },
  {
    title: 'Full Set of Golf Clubs',
    description: 'A complete premium set of irons, woods and putter with a tour bag.',
    image: img('sports-2'),
    ticketPricePence: 149,
    totalTickets: 250,
    endsInDays: 13,
    drawHour: 19,
    autoWin: true,
    status: 'active',
    category: 'Sports',
    features: ['Tour bag included', 'Custom fitting session'],
    sold: 84,
    openedDaysAgo: 3,
  },
  {
    title: 'Rolex Submariner Watch',
    description: 'An iconic luxury dive watch, brand new with box and papers.',
    image: img('luxury'),
    ticketPricePence: 499,
    totalTickets: 10_000,
    endsInDays: 30,
    drawHour: 21,
    autoWin: false,
    status: 'active',
    category: 'Luxury',
    features: ['Box and papers', 'Cash alternative £9,000'],
    sold: 1870,
    openedDaysAgo: 14,
  },
  {
    title: 'Designer Sunglasses',
    description: 'Premium polarised designer sunglasses with a leather case.',
    image: img('luxury-2'),
    ticketPricePence: 99,
    totalTickets: 200,
    endsInDays: 8,
    drawHour: 18,
    autoWin: true,
    status: 'active',
    category: 'Luxury',
    features: ['Polarised lenses', 'Leather case'],
    sold: 61,
    openedDaysAgo: 1,
  },
  {
    title: '£500 Supermarket Voucher',
    description: 'Five hundred pounds to spend at the supermarket of your choice.',
    image: img('vouchers'),
    ticketPricePence: 99,
    totalTickets: 1000,
    endsInDays: 5,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Vouchers',
    features: ['Choice of five supermarkets', 'Delivered by email'],
    sold: 455,
    openedDaysAgo: 11,
  },
  {
    title: '£100 Shopping Gift Card',
    description: 'A gift card accepted at hundreds of high-street and online shops.',
    image: img('vouchers-2'),
    ticketPricePence: 25,
    totalTickets: 100,
    endsInDays: 7,
    drawHour: 19,
    autoWin: true,
    status: 'active',
    category: 'Vouchers',
    features: ['Accepted at 150+ shops'],
    sold: 38,
    openedDaysAgo: 2,
  },
  {
    title: 'VW Golf GTI or £25,000 Cash',
    description:
      'A brand-new Volkswagen Golf GTI, plus a £1,000 runner-up prize and a smartwatch for third place.',
    image: img('automotive'),
    ticketPricePence: 399,
    totalTickets: 4000,
    endsInDays: 20,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Automotive',
    productName: 'Volkswagen Golf GTI',
    features: ['Three winners', 'Delivered to your door', 'Cash alternative for the car'],
    sold: 820,
    // Older than the other live draws, so the demo's usual order stays as it was.
    openedDaysAgo: 15,
    prizeValuePence: 3_450_000,
    cashAlternativePence: 2_500_000,
    prizes: [
      {
        title: 'Volkswagen Golf GTI',
        description: 'Brand new, in the colour of your choice, taxed and ready to drive.',
        cashValuePence: 3_450_000,
        cashAlternativePence: 2_500_000,
        image: img('automotive'),
      },
      {
        title: '£1,000 cash',
        description: 'Paid by bank transfer the day after the draw.',
        cashValuePence: 100_000,
        cashAlternativePence: null,
        image: img('cash'),
      },
      {
        title: 'Smartwatch',
        description: 'The latest GPS smartwatch.',
        cashValuePence: 39_900,
        cashAlternativePence: 30_000,
        image: img('electronics-2'),
      },
    ],
  },
  {
    title: 'Seven Nights in Santorini for Two',
    description: 'Flights, a sea-view hotel and breakfast every day: a Greek island holiday for two.',
    image: img('travel'),
    ticketPricePence: 199,
    totalTickets: 1500,
    endsInDays: 17,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Travel',
    features: ['Flights from any UK airport', 'Travel dates of your choice within a year'],
    sold: 266,
    openedDaysAgo: 16,
    prizeValuePence: 350_000,
    cashAlternativePence: 280_000,
  },
  {
    title: 'Cornish Coastal Cottage Break',
    description: 'A week in a sea-view cottage on the Cornish coast (archived while we rearrange dates).',
    image: img('travel'),
    ticketPricePence: 149,
    totalTickets: 1000,
    endsInDays: 40,
    drawHour: 20,
    autoWin: false,
    status: 'archived',
    category: 'Travel',
    features: ['Sleeps six', 'Dog friendly'],
    sold: 0,
    openedDaysAgo: 20,
  },
  {
    title: 'Instant Win Cash Bonanza',
    description:
      'A £2,000 main prize, plus 30 ticket numbers that win site credit or a prize the moment they are bought.',
    image: img('cash-2'),
    ticketPricePence: 99,
    totalTickets: 2000,
    endsInDays: 9,
    drawHour: 20,
    autoWin: false,
    status: 'active',
    category: 'Cash',
    features: [
      '30 instant wins',
      'Instant-win list committed before sales',
      'Debit card or site credit only',
    ],
    sold: 180,
    // Listed after the other live competitions: the demo's usual order stays as it was.
    openedDaysAgo: 28,
    instantWins: [
      { title: '£5 site credit', kind: 'credit', amountPence: 500, count: 20 },
      { title: '£25 site credit', kind: 'credit', amountPence: 2500, count: 8 },
      {
        title: 'Wireless earbuds',
        kind: 'prize',
        description: 'Noise-cancelling wireless earbuds.',
        cashValuePence: 12_900,
        count: 2,
      },
    ],
  },
  {
    title: '£1,000 Spring Cash Giveaway',
    description: 'Our spring cash draw, now closed.',
    image: img('cash'),
    ticketPricePence: 99,
    totalTickets: 500,
    endsInDays: -3,
    drawHour: 20,
    autoWin: false,
    status: 'ended',
    category: 'Cash',
    features: ['Paid by bank transfer'],
    sold: 320,
    openedDaysAgo: 30,
  },
];

/** End date: N days from `now`, at the competition's draw hour (UTC). */
export function seedEndDate(now: number, c: Pick<SeedCompetition, 'endsInDays' | 'drawHour'>): number {
  const d = new Date(now + c.endsInDays * DAY);
  d.setUTCHours(c.drawHour, 0, 0, 0);
  return d.getTime();
}

export const seedCreatedAt = (now: number, c: Pick<SeedCompetition, 'openedDaysAgo'>) =>
  now - c.openedDaysAgo * DAY;
