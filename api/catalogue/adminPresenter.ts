import type { AdminCompetitionView, AdminUserView, PromoView } from '../../contract/admin';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import type { Competition, PromoConfig, User } from '../../db/models';
import { skillQuestionOf } from './skill';

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
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

export const presentAdminUser = (u: User): AdminUserView => ({
  id: u.id,
  username: u.username,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  phoneNumber: u.phoneNumber,
  role: u.role,
  siteCredit: penceToPounds(u.siteCreditPence),
  createdAt: iso(u.createdAt),
});

export const presentPromo = (p: PromoConfig): PromoView => ({
  id: p.id,
  name: p.name,
  description: p.description,
  creditAmount: penceToPounds(p.creditAmountPence),
  targetUserType: p.targetUserType,
  isActive: p.isActive,
  validFrom: iso(p.validFrom),
  validUntil: p.validUntil === null ? null : iso(p.validUntil),
  maxUsesPerUser: p.maxUsesPerUser,
  totalMaxUses: p.totalMaxUses,
  currentUses: p.currentUses,
  autoApply: p.autoApply,
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
});
