import type { AdminCompetitionView } from '../../contract/admin';
import { bundlesToOffers } from '../../contract/bundles';
import { iso } from '../../contract/dates';
import { galleryOf } from '../../contract/gallery';
import { minimumSalesOf } from '../../contract/minimumSales';
import { penceToPounds } from '../../contract/money';
import { mainPrizesOf } from '../../contract/prizes';
import { skillPoolOf } from '../../contract/skill';
import type { Competition } from '../../db/models';

/** A competition as the admin screens edit it: everything, including the skill answers. */
export function presentAdminCompetition(c: Competition): AdminCompetitionView {
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    image: c.image,
    images: galleryOf(c),
    ticketPrice: penceToPounds(c.ticketPricePence),
    totalTickets: c.totalTickets,
    ticketsSold: c.ticketsSold,
    endDate: iso(c.endDate),
    startsAt: c.startsAt === null || c.startsAt === undefined ? null : iso(Number(c.startsAt)),
    autoWin: c.autoWin,
    status: c.status,
    features: Array.isArray(c.features) ? c.features : [],
    details: {
      ...(c.details?.category ? { category: c.details.category } : {}),
      ...(c.details?.productName ? { productName: c.details.productName } : {}),
    },
    maxTicketsPerUser: c.maxTicketsPerUser ?? null,
    skillQuestion: skillPoolOf(c.skillQuestions)[0]!,
    skillQuestions: c.skillQuestions ?? [],
    cashAlternative: c.cashAlternativePence === null ? null : penceToPounds(c.cashAlternativePence),
    prizeValue:
      c.prizeValuePence === null || c.prizeValuePence === undefined ? null : penceToPounds(c.prizeValuePence),
    prizes: mainPrizesOf(c),
    ...minimumSalesOf(c),
    bundles: bundlesToOffers(c.bundles),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}
