import { deriveCategory } from '../../contract/categories';
import type { PublicCompetition } from '../../contract/competitions';
import { iso } from '../../contract/dates';
import type { PublicDraw } from '../../contract/draw';
import { penceToPounds } from '../../contract/money';
import type { Competition } from '../../db/models';
import { skillQuestionOf } from './skill';

/**
 * The public shape: pounds instead of pence, ISO dates, derived category; nothing internal (the
 * draw seed only inside `draw`, after the draw). `draw` is included when the caller looked it up.
 */
export function presentCompetition(c: Competition, draw?: PublicDraw | null): PublicCompetition {
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
    drawCommitment: c.drawCommitment ?? '',
    ...(draw === undefined ? {} : { draw }),
  };
}
