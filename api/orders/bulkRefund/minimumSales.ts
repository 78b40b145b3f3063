import type { Knex } from 'knex';
import { DAY_MS, minimumNotReached } from '../../../contract/minimumSales';
import { lockRows } from '../../../db/locks';
import { Competition } from '../../../db/models';
import { presentAdminCompetition } from '../../catalogue/adminPresenter';
import { emitCompetitionUpdated } from '../../draws/drawable';
import { writeAudit } from '../../platform/auditLog';
import { entrantKey, greetingOf } from '../../platform/email/recipients';
import { competitionExtendedEmail } from '../../platform/email/templates/competitionChanges';
import { type OutboxKey, oweMails } from '../../platform/outbox/owe';
import { inUnitOfWork, type UnitOfWork } from '../../platform/unitOfWork';
import { bumpVersionNow } from '../../tickets/competitionVersions';
import { cancelInUnitOfWork } from './cancelCompetition';
import type {} from './events';
import { kickBulkRefunds } from './kick';
import type { BulkRefundDeps } from './refundJob';

// The minimum-sales rule at the end date (docs/product.md#minimum-sales-and-cancellation). The
// closing job leaves a competition short of its minimum open (api/draws/closingJob.ts); here it is
// extended by `extendByDays` while extensions are left, else cancelled and its refund job written.
// Each in one transaction with the competition locked, so a sale completing at the same moment is
// counted either before (and may reach the minimum) or after (and is refused and refunded).

type Due = { id: number };

/** Active, past the end date, short of the minimum. */
const dueQuery = (db: Knex, now: number) =>
  db('competitions')
    .where('status', 'active')
    .where('endDate', '<=', now)
    .whereNotNull('minTicketsSold')
    .where('ticketsSold', '<', db.ref('minTicketsSold'));

/** Everyone with an entry: accounts (not deleted) and postcards without one, each once. */
async function entrantsOf(trx: Knex, competitionId: number) {
  const accounts = (await trx('tickets as t')
    .join('users as u', 'u.id', 't.userId')
    .where({ 't.competitionId': competitionId, 't.status': 'sold' })
    .whereNull('u.deletedAt')
    .distinct('u.id', 'u.email', 'u.firstName', 'u.username')) as Array<{
    id: number;
    email: string;
    firstName: string | null;
    username: string;
  }>;
  const postcards = (await trx('postalEntries')
    .where({ competitionId })
    .whereNull('userId')
    .select('email', 'name')) as Array<{ email: string; name: string }>;
  const seen = new Set<string>();
  return [
    ...accounts.map((u) => ({
      key: entrantKey({ userId: u.id }, u.email),
      to: u.email,
      userId: Number(u.id),
      name: greetingOf(u),
    })),
    ...postcards.map((p) => ({
      key: entrantKey({}, p.email),
      to: p.email,
      userId: null,
      name: greetingOf({ postalName: p.name }),
    })),
  ].filter((e) => !seen.has(e.key) && seen.add(e.key));
}

/** Moves the end date on, once more; every entrant is owed an e-mail. */
async function extend(uow: UnitOfWork, c: Competition, now: number): Promise<OutboxKey[]> {
  const { trx } = uow;
  const byDays = Number(c.extendByDays) * DAY_MS;
  // From the end date, as the rule says; after an outage longer than the period, the full period from now.
  const moved = Number(c.endDate) + byDays;
  const endDate = moved > now ? moved : now + byDays;
  const extensionsUsed = Number(c.extensionsUsed) + 1;
  await trx('competitions').where({ id: c.id }).update({ endDate, extensionsUsed, updatedAt: now });
  const after = (await Competition.query(trx).findById(c.id))!;
  await writeAudit(
    trx,
    null,
    'competition.extend',
    { type: 'competition', id: c.id },
    presentAdminCompetition(c),
    { ...presentAdminCompetition(after), reason: minimumNotReached(Number(c.minTicketsSold)) },
    now,
  );
  uow.emit('competition.extended', { competitionId: c.id, endDate, extensionsUsed });
  await emitCompetitionUpdated(uow, c.id, await bumpVersionNow(trx, c.id));
  const mails = (await entrantsOf(trx, c.id)).map((e) => ({
    template: competitionExtendedEmail,
    subject: `competition-extended:${c.id}:${extensionsUsed}:${e.key}`,
    recipient: { to: e.to, userId: e.userId },
    props: {
      name: e.name,
      title: c.title,
      endDate,
      minTicketsSold: Number(c.minTicketsSold),
      link: `/competitions/${c.id}`,
    },
  }));
  return oweMails(trx, mails, now);
}

/** Extends or cancels each competition due; answers what it did. */
export async function settleMinimumSales(deps: BulkRefundDeps, now = Date.now()) {
  const due = (await dueQuery(deps.db, now).select('id')) as Due[];
  const done = { extended: [] as number[], cancelled: [] as number[] };
  for (const { id } of due) {
    const outcome = await inUnitOfWork(deps, async (uow) => {
      const c = (await lockRows(uow.trx, 'competition', Competition.query(uow.trx).findById(id))) as
        | Competition
        | undefined;
      // Settled meanwhile by another process, or a last sale reached the minimum.
      if (!c || !(await dueQuery(uow.trx, now).where({ id }).first('id'))) return null;
      if (Number(c.extensionsUsed) < Number(c.maxExtensions))
        return { kind: 'extended' as const, mail: await extend(uow, c, now) };
      await cancelInUnitOfWork(uow, null, id, minimumNotReached(Number(c.minTicketsSold)), now);
      return { kind: 'cancelled' as const, mail: [] };
    });
    if (!outcome) continue;
    done[outcome.kind].push(id);
    await deps.mailer.outbox.deliver(outcome.mail);
  }
  if (done.cancelled.length) kickBulkRefunds(deps);
  return done;
}
