import { deriveCategory } from '../../contract/categories';
import type { PublicCompetition } from '../../contract/competitions';
import { penceToPounds } from '../../contract/money';
import type { Competition } from '../../db/models';
import { skillQuestionOf } from '../services/skill';

const iso = (ms: number) => new Date(ms).toISOString();

/** The public shape: pounds instead of pence, ISO dates, derived category; nothing internal. */
export function presentCompetition(c: Competition): PublicCompetition {
  const details = {
    ...(c.details?.category ? { category: c.details.category } : {}),
    ...(c.details?.productName ? { productName: c.details.productName } : {}),
  };
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    image: c.image,
    createdAt: iso(c.createdAt),
    endDate: iso(c.endDate),
    ticketPrice: penceToPounds(c.ticketPricePence),
    ticketsSold: c.ticketsSold,
    totalTickets: c.totalTickets,
    autoWin: c.autoWin,
    status: c.status,
    features: Array.isArray(c.features) ? c.features : [],
    details,
    category: deriveCategory({ title: c.title, description: c.description, details }),
    skillQuestion: skillQuestionOf(c),
  };
}
