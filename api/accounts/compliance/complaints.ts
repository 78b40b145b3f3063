import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type {
  ComplaintCreateInput,
  ComplaintQueueQuery,
  ComplaintStatus,
} from '../../../contract/complaints';
import { pageInfo } from '../../../contract/paging';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { containsPattern, isUniqueViolation } from '../../../db/dialect';
import { lockRows } from '../../../db/locks';
import { readSiteSetting } from '../../catalogue/settings';
import { type Actor, writeAudit } from '../../platform/auditLog';
import type { AppDeps } from '../../platform/context';
import { complaintReceivedEmail, complaintReplyEmail } from '../../platform/email/templates/complaints';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { type OutboxKey, oweMail } from '../../platform/outbox/owe';
import type { RateLimits } from '../../platform/rateLimits';
import { waitPhrase } from '../accountLimits';
import { greetingName } from '../security/accountMail';
import type { ComplaintRecord } from './complaintPresenter';

// The complaints process (docs/product.md#complaints): a customer complains (about one of their
// orders, or anything else) and gets a reference and the date an answer is due; the admin's queue
// replies by e-mail and closes. Replies are kept, and the customer sees them in My Account.

export type ComplaintDeps = Pick<AppDeps, 'db' | 'mailer' | 'logger'>;

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_YOUR_ORDER = 'The order must be one of your orders';
// No 0/O or 1/I: references are read out on the phone.
const REFERENCE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** CMP- and 8 random characters: unguessable, so a reference reveals nothing of the volume. */
const newReference = () =>
  `CMP-${Array.from({ length: 8 }, () => REFERENCE_LETTERS[randomInt(REFERENCE_LETTERS.length)]).join('')}`;

/** A mail that fails is in the mail log; the complaint and the reply stand. */
/**
 * Sends the e-mail the complaint's transaction owed (the outbox retries a failure); whether it has
 * gone now.
 */
async function deliverNow(deps: ComplaintDeps, key: OutboxKey | null) {
  if (!key) return false;
  await deps.mailer.outbox.deliver([key]);
  const row = await deps.db('mailOutbox').where({ kind: key.kind, subjectKey: key.subject }).first('status');
  return row?.status === 'sent';
}

/** Complaints one account may send a day, and one address an hour. */
export const COMPLAINTS_PER_ACCOUNT_PER_DAY = 5;
export const COMPLAINTS_PER_ADDRESS_PER_HOUR = 30;

const tooManyComplaints = (seconds: number) =>
  `You have sent several complaints recently. Please try again in ${waitPhrase(seconds)}.`;

/**
 * Counts a complaint against its account and address before it is stored: each one lands in the
 * operator's queue and may send an e-mail, so neither may be flooded. Security, not load, so
 * RATE_LIMITS=off leaves it on (docs/security.md#complaints).
 */
export function createComplaintLimit(rateLimits: RateLimits) {
  const perAccount = rateLimits.limiter({
    name: 'complaint-account',
    points: COMPLAINTS_PER_ACCOUNT_PER_DAY,
    durationSeconds: DAY_MS / 1000,
    guesses: true,
  });
  const perAddress = rateLimits.limiter({
    name: 'complaint-address',
    points: COMPLAINTS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 3600,
    guesses: true,
  });
  return async (userId: number, address: string) => {
    await perAddress.hit(address, tooManyComplaints);
    await perAccount.hit(String(userId), tooManyComplaints);
  };
}

/**
 * Stores the complaint with its reference and due date. The acknowledgement e-mail goes only to a
 * confirmed address: it quotes the customer's own subject, and an unconfirmed address may be
 * someone else's.
 */
export async function createComplaint(
  deps: ComplaintDeps,
  user: {
    id: number;
    username: string;
    email: string;
    firstName: string | null;
    emailVerifiedAt: number | null;
  },
  input: ComplaintCreateInput,
  now = Date.now(),
): Promise<ComplaintRecord> {
  const { db } = deps;
  const orderId = input.orderId ?? null;
  if (orderId !== null) {
    const order = await db('orders').where({ id: orderId, userId: user.id }).first('id');
    if (!order) throw badRequest(NOT_YOUR_ORDER, { fields: { orderId: NOT_YOUR_ORDER } });
  }
  const { complaintResponseDays } = await readSiteSetting(db, SITE_SETTINGS.compliance);
  const dueAt = now + complaintResponseDays * DAY_MS;
  let id: number | undefined;
  let owed: OutboxKey | null = null;
  for (let attempt = 0; id === undefined; attempt++) {
    try {
      // The complaint and its acknowledgement (to a confirmed address only), together.
      [id, owed] = await db.transaction(async (trx) => {
        const reference = newReference();
        const [inserted] = await trx('complaints').insert({
          reference,
          userId: user.id,
          orderId,
          subject: input.subject,
          message: input.message,
          status: 'open',
          dueAt,
          createdAt: now,
          updatedAt: now,
        });
        const key =
          user.emailVerifiedAt === null
            ? null
            : await oweMail(
                trx,
                {
                  template: complaintReceivedEmail,
                  subject: `complaint:${Number(inserted)}`,
                  recipient: { to: user.email, userId: user.id },
                  props: { name: greetingName(user), reference, subject: input.subject, dueAt },
                },
                now,
              );
        return [Number(inserted), key] as const;
      });
    } catch (err) {
      // A reference already used (one in a trillion): draw another.
      if (!isUniqueViolation(err) || attempt >= 2) throw err;
    }
  }
  await deliverNow(deps, owed);
  return readComplaint(db, id);
}

const COMPLAINT_COLUMNS = [
  'c.id',
  'c.reference',
  'c.userId',
  'u.username',
  'u.email',
  'c.orderId',
  'c.subject',
  'c.message',
  'c.status',
  'c.dueAt',
  'c.createdAt',
];

const complaintsWithCustomer = (db: Knex) => db('complaints as c').join('users as u', 'u.id', 'c.userId');

/** Complaints with their customer and replies, in the order `filter` sets. */
async function readComplaints(
  db: Knex,
  filter: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
): Promise<ComplaintRecord[]> {
  const rows = (await filter(complaintsWithCustomer(db).select(COMPLAINT_COLUMNS))) as Array<
    Omit<ComplaintRecord, 'replies'>
  >;
  if (rows.length === 0) return [];
  const replies = (await db('complaintReplies')
    .whereIn(
      'complaintId',
      rows.map((r) => r.id),
    )
    .orderBy('id')
    .select('complaintId', 'message', 'adminUsername', 'createdAt')) as Array<
    ComplaintRecord['replies'][number] & { complaintId: number }
  >;
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    orderId: r.orderId === null ? null : Number(r.orderId),
    dueAt: Number(r.dueAt),
    createdAt: Number(r.createdAt),
    replies: replies
      .filter((x) => Number(x.complaintId) === Number(r.id))
      .map(({ message, adminUsername, createdAt }) => ({
        message,
        adminUsername,
        createdAt: Number(createdAt),
      })),
  }));
}

const readComplaint = async (db: Knex, id: number) =>
  (await readComplaints(db, (q) => q.where('c.id', id)))[0]!;

/** The customer's own complaints, newest first. */
export const listOwnComplaints = (db: Knex, userId: number) =>
  readComplaints(db, (q) => q.where('c.userId', userId).orderBy('c.id', 'desc'));

/**
 * The admin's queue, a page at a time, so that every complaint can be reached however many there
 * are: open first, then responded, then closed; within each, the earliest due first.
 */
export async function listComplaintQueue(db: Knex, query: ComplaintQueueQuery) {
  const matching = (q: Knex.QueryBuilder) => {
    if (query.status) q.where('c.status', query.status);
    const search = query.search;
    if (search) {
      const pattern = containsPattern(search);
      q.where((w) =>
        w
          .whereRaw("lower(c.reference) like ? escape '!'", [pattern])
          .orWhereRaw("lower(u.username) like ? escape '!'", [pattern])
          .orWhereRaw("lower(u.email) like ? escape '!'", [pattern])
          .orWhereRaw("lower(c.subject) like ? escape '!'", [pattern]),
      );
    }
    return q;
  };
  const counted = (await matching(complaintsWithCustomer(db)).count({ n: '*' }).first()) as { n: number };
  const total = Number(counted.n);
  const complaints = await readComplaints(db, (q) =>
    matching(q)
      .orderByRaw("CASE c.status WHEN 'open' THEN 0 WHEN 'responded' THEN 1 ELSE 2 END")
      .orderBy('c.dueAt')
      .orderBy('c.id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  );
  return { complaints, ...pageInfo(total, query.page, query.pageSize) };
}

async function lockComplaint(trx: Knex.Transaction, id: number) {
  const [row] = (await lockRows(
    trx,
    'complaint',
    trx('complaints').where({ id }).select('id', 'status', 'userId'),
  )) as Array<{
    id: number;
    status: ComplaintStatus;
    userId: number;
  }>;
  if (!row) throw notFound('Complaint not found');
  return row;
}

/**
 * The admin's reply: kept with the complaint (now 'responded'), audited, and e-mailed to the
 * customer after COMMIT. `emailSent` false means the mail failed (see 'E-mails sent').
 */
export async function replyToComplaint(
  deps: ComplaintDeps,
  admin: Actor,
  id: number,
  message: string,
  now = Date.now(),
): Promise<{ complaint: ComplaintRecord; emailSent: boolean }> {
  const { db } = deps;
  const owed = await db.transaction(async (trx) => {
    const row = await lockComplaint(trx, id);
    if (row.status === 'closed') throw conflict('This complaint is closed: it cannot be replied to.');
    const [replyId] = await trx('complaintReplies').insert({
      complaintId: id,
      adminUserId: admin.id,
      adminUsername: admin.username,
      message,
      createdAt: now,
    });
    await trx('complaints').where({ id }).update({ status: 'responded', updatedAt: now });
    await writeAudit(
      trx,
      admin,
      'complaint.replied',
      { type: 'complaint', id },
      { status: row.status },
      { status: 'responded' },
      now,
    );
    // The reply's e-mail, owed with the reply itself (the outbox sends it, and retries).
    const complaint = await readComplaint(trx, id);
    const customer = (await trx('users')
      .where({ id: complaint.userId })
      .first('firstName', 'username', 'deletedAt')) as {
      firstName: string | null;
      username: string;
      deletedAt: number | null;
    };
    if (customer.deletedAt) return null;
    return oweMail(
      trx,
      {
        template: complaintReplyEmail,
        subject: `complaint:${id}:reply:${Number(replyId)}`,
        recipient: { to: complaint.email, userId: complaint.userId },
        props: {
          name: greetingName(customer),
          reference: complaint.reference,
          subject: complaint.subject,
          reply: message,
        },
      },
      now,
    );
  });
  const emailSent = await deliverNow(deps, owed);
  return { complaint: await readComplaint(db, id), emailSent };
}

/** Closes a complaint (again is a no-op); audited. */
export async function closeComplaint(
  db: Knex,
  admin: Actor,
  id: number,
  now = Date.now(),
): Promise<ComplaintRecord> {
  await db.transaction(async (trx) => {
    const row = await lockComplaint(trx, id);
    if (row.status === 'closed') return;
    await trx('complaints').where({ id }).update({ status: 'closed', closedAt: now, updatedAt: now });
    await writeAudit(
      trx,
      admin,
      'complaint.closed',
      { type: 'complaint', id },
      { status: row.status },
      { status: 'closed' },
      now,
    );
  });
  return readComplaint(db, id);
}
