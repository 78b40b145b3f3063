import type { Knex } from 'knex';
import type { CustomerNoteView, CustomerSearchQuery } from '../../../contract/backOffice';
import { iso } from '../../../contract/dates';
import { formatPence } from '../../../contract/money';
import { pageInfo } from '../../../contract/paging';
import { containsPattern } from '../../../db/dialect';
import { User } from '../../../db/models';
import { lockTarget } from '../../accounts/adminUsers';
import { addCredit, spendCredit } from '../../accounts/credit';
import type { AdminDeps } from '../../catalogue/adminCompetitions';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { conflict } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';

// The admin's care of one customer (docs/product.md#admin-customers): finding them, adjusting
// their site credit with a reason (a ledger row, the balance moved with it) and notes.

/** By id, username, e-mail or name (part of it), newest accounts first. */
export async function searchCustomers(db: Knex, query: CustomerSearchQuery) {
  const filtered = () => {
    const q = User.query(db).whereNull('deletedAt');
    const search = query.search?.trim().toLowerCase();
    if (search) {
      const pattern = containsPattern(search);
      q.where((w) => {
        if (/^\d{1,10}$/.test(search)) w.orWhere('id', Number(search));
        for (const column of ['email', 'username', 'first_name', 'last_name'])
          w.orWhereRaw(`lower(??) like ? escape '!'`, [column, pattern]);
      });
    }
    return q;
  };
  const total = await filtered().resultSize();
  const users = (await filtered()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)) as User[];
  return { users, ...pageInfo(total, query.page, query.pageSize) };
}

/**
 * Moves the customer's credit by `amountPence` (negative takes it away), one ledger row whose
 * description carries the admin's reason, audited. A deduction larger than the balance is refused
 * with nothing written.
 */
export async function adjustCredit(
  deps: AdminDeps,
  actor: Actor,
  userId: number,
  change: { amountPence: number; reason: string },
  now = Date.now(),
) {
  await inUnitOfWork(deps, async ({ trx }) => {
    const target = await lockTarget(trx, userId);
    const description = `Adjusted by ${actor.username}: ${change.reason}`.slice(0, 255);
    const before = { id: userId, siteCreditPence: target.siteCreditPence };
    if (change.amountPence > 0) {
      await addCredit(trx, userId, { amountPence: change.amountPence, description }, now);
    } else if (!(await spendCredit(trx, userId, { amountPence: -change.amountPence, description }, now))) {
      throw conflict(`The balance is ${formatPence(target.siteCreditPence)}; it cannot go below zero.`);
    }
    const after = {
      id: userId,
      siteCreditPence: target.siteCreditPence + change.amountPence,
      reason: change.reason,
    };
    await writeAudit(trx, actor, 'credit.adjust', { type: 'user', id: userId }, before, after, now);
  });
}

interface NoteRow {
  id: number;
  text: string;
  createdAt: number | string;
  adminUsername: string | null;
}

const presentNote = (r: NoteRow): CustomerNoteView => ({
  id: r.id,
  text: r.text,
  admin: r.adminUsername,
  createdAt: iso(Number(r.createdAt)),
});

const notes = (db: Knex) =>
  db('customerNotes as n')
    .leftJoin('users as a', 'a.id', 'n.adminId')
    .select('n.id', 'n.text', 'n.createdAt', 'a.username as adminUsername');

export async function listNotes(db: Knex, userId: number): Promise<CustomerNoteView[]> {
  const rows = (await notes(db)
    .where('n.userId', userId)
    .orderBy([
      { column: 'n.createdAt', order: 'desc' },
      { column: 'n.id', order: 'desc' },
    ])) as NoteRow[];
  return rows.map(presentNote);
}

/** A note on the customer, with who wrote it and when. */
export async function addNote(
  deps: AdminDeps,
  actor: Actor,
  userId: number,
  text: string,
  now = Date.now(),
): Promise<CustomerNoteView> {
  const id = await inUnitOfWork(deps, async ({ trx }) => {
    await lockTarget(trx, userId);
    const [noteId] = await trx('customerNotes').insert({ userId, adminId: actor.id, text, createdAt: now });
    return Number(noteId);
  });
  return presentNote((await notes(deps.db).where('n.id', id).first()) as NoteRow);
}
