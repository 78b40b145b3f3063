import type { AdminCompetitionView } from '../../contract/admin';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import type { Competition } from '../../db/models';
import { skillQuestionOf } from './presenter';

/** A competition as the admin screens edit it: everything, including the skill answer. */
export function presentAdminCompetition(c: Competition): AdminCompetitionView {
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    image: c.image,
    ticketPrice: penceToPounds(c.ticketPricePence),
    totalTickets: c.totalTickets,
    ticketsSold: c.ticketsSold,
    endDate: iso(c.endDate),
    autoWin: c.autoWin,
    status: c.status,
    features: Array.isArray(c.features) ? c.features : [],
    details: {
      ...(c.details?.category ? { category: c.details.category } : {}),
      ...(c.details?.productName ? { productName: c.details.productName } : {}),
    },
    maxTicketsPerUser: c.maxTicketsPerUser ?? null,
    skillQuestion: { ...skillQuestionOf(c), answer: c.skillAnswer ?? DEFAULT_SKILL_QUESTION.answer },
    prizeValue:
      c.prizeValuePence === null || c.prizeValuePence === undefined ? null : penceToPounds(c.prizeValuePence),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}
