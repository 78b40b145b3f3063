// The launch scenario's checks on the database afterwards (scenarios/launch.ts): what a queued
// launch promises: one line per promise broken, with its count (target: none).
import type { Knex } from 'knex';
import { shuffledOrder } from '../../contract/launchQueue';
import { probeViolations } from '../../scripts/swarm/launchFigures';
import type { VisitorReport } from '../../scripts/swarm/launchVisitor';

export interface EntryRow {
  id: number;
  userId: number | null;
  ownerKey: string;
  joinedAt: number;
  position: number | null;
  admittedAt: number | null;
  admissionExpiresAt: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function queueEntries(db: Knex, competitionId: number): Promise<EntryRow[]> {
  const rows = (await db('launchQueueEntries').where({ competitionId }).select('*')) as Record<
    string,
    unknown
  >[];
  return rows.map((r) => ({
    id: Number(r.id),
    userId: num(r.userId),
    ownerKey: String(r.ownerKey),
    joinedAt: Number(r.joinedAt),
    position: num(r.position),
    admittedAt: num(r.admittedAt),
    admissionExpiresAt: num(r.admissionExpiresAt),
  }));
}

/** Every broken promise of the launch, in words. */
export async function launchViolations(
  db: Knex,
  competitionId: number,
  entries: EntryRow[],
  reports: VisitorReport[],
): Promise<string[]> {
  const violations: string[] = [];
  const c = await db('competitions').where({ id: competitionId }).first();
  const startsAt = Number(c.startsAt);
  const drainedAt = num(c.queueDrainedAt);

  // No number held or sold twice (the unique key's promise, checked anyway).
  const twice = (await db('tickets')
    .where({ competitionId })
    .select('number')
    .count({ n: '*' })
    .groupBy('number')
    .having(db.raw('count(*) > 1'))) as Array<{ number: number; n: number | string }>;
  if (twice.length)
    violations.push(
      `${twice.length} numbers are held or sold more than once (${twice[0]!.number}: ${twice[0]!.n} times)`,
    );

  // The shuffle: those who joined before the opening hold positions 1..N in the seed's order.
  const early = entries.filter((e) => e.joinedAt < startsAt).sort((a, b) => a.id - b.id);
  const expected = await shuffledOrder(
    c.queueSeed,
    early.map((e) => e.id),
  );
  const byId = new Map(entries.map((e) => [e.id, e]));
  const misplaced = expected.filter((id, i) => byId.get(id)!.position !== i + 1).length;
  if (misplaced) violations.push(`${misplaced} early places are not where the seed puts them`);

  // Admission follows the positions: nobody let in before someone ahead of them.
  const placed = entries.filter((e) => e.position !== null).sort((a, b) => a.position! - b.position!);
  let last = 0;
  let outOfOrder = 0;
  for (const e of placed) {
    const at = e.admittedAt ?? Number.POSITIVE_INFINITY;
    if (at < last) outOfOrder++;
    last = Math.max(last, at);
  }
  if (outOfOrder) violations.push(`${outOfOrder} places were let in before someone ahead of them`);
  const never = entries.filter((e) => e.admittedAt === null).length;
  if (never) violations.push(`${never} places were never let in`);

  // Every hold on the competition was taken within its owner's admission (or once the queue was over).
  const entryOf = new Map(entries.map((e) => [e.ownerKey, e]));
  const tickets = (await db('tickets')
    .where({ competitionId })
    .select('number', 'userId', 'status', 'createdAt')) as Array<Record<string, unknown>>;
  let outside = 0;
  for (const t of tickets) {
    const at = Number(t.createdAt);
    const e = t.userId === null ? undefined : entryOf.get(`u:${Number(t.userId)}`);
    const open = drainedAt !== null && at >= drainedAt;
    const admitted = e?.admittedAt != null && at >= e.admittedAt && at < e.admissionExpiresAt!;
    if (!open && !admitted) outside++;
  }
  if (outside) violations.push(`${outside} numbers were held outside their holder's admission`);

  // What was sold: the count, and every number a visitor paid for is sold to them.
  const sold = tickets.filter((t) => t.status === 'sold');
  if (Number(c.ticketsSold) !== sold.length)
    violations.push(`ticketsSold says ${c.ticketsSold} but ${sold.length} numbers are sold`);
  const owner = new Map(sold.map((t) => [Number(t.number), Number(t.userId)]));
  const notTheirs = reports.flatMap((r) => r.paid.filter((n) => owner.get(n) !== r.userId));
  if (notTheirs.length) violations.push(`${notTheirs.length} numbers paid for are not sold to their payer`);
  violations.push(...probeViolations(reports));
  return violations;
}
