import type { AdminCompetitionView } from '../../contract/admin';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';

/** A live competition as the admin list gives it to the edit dialog. */
export const hotTub: AdminCompetitionView = {
  id: 5,
  title: 'Hot Tub',
  description: 'A six-seat hot tub',
  image: null,
  images: [],
  ticketPrice: 2.49,
  totalTickets: 100,
  ticketsSold: 12,
  endDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  startsAt: null,
  autoWin: false,
  status: 'active',
  features: [],
  details: { category: 'Home' },
  maxTicketsPerUser: null,
  skillQuestion: { ...DEFAULT_SKILL_QUESTION, options: [...DEFAULT_SKILL_QUESTION.options] },
  skillQuestions: [],
  cashAlternative: null,
  prizeValue: null,
  prizes: [
    { title: 'Hot Tub', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
  ],
  minTicketsSold: null,
  extendByDays: 7,
  maxExtensions: 0,
  extensionsUsed: 0,
  cancellationReason: null,
  bundles: [],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
