import type { Knex } from 'knex';
import type { AuditEntryView } from '../../contract/admin';

// Who changed what, when, with the record before and after. Written in the same transaction as
// the change it describes, so a rolled-back change leaves no audit row and a committed one always
// has one.

export interface Actor {
  id: number;
  username: string;
}

export type AuditEntity = 'competition' | 'order' | 'user' | 'promo' | 'setting' | 'credit' | 'complaint';

export async function writeAudit(
  trx: Knex.Transaction,
  /** null: the site's own rules did it (a competition cancelled for missing its minimum). */
  actor: Actor | null,
  action: string,
  entity: { type: AuditEntity; id: number | string | null },
  before: unknown,
  after: unknown,
  now = Date.now(),
): Promise<void> {
  await trx('auditLog').insert({
    actorUserId: actor?.id ?? null,
    actorUsername: actor?.username ?? 'system',
    action,
    entityType: entity.type,
    entityId: entity.id === null ? null : String(entity.id),
    beforeJson: before === undefined || before === null ? null : JSON.stringify(before),
    afterJson: after === undefined || after === null ? null : JSON.stringify(after),
    createdAt: now,
  });
}

interface AuditRow {
  id: number;
  actorUserId: number | null;
  actorUsername: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  beforeJson: string | null;
  afterJson: string | null;
  createdAt: number;
}

const parsed = (json: string | null) => (json === null ? null : JSON.parse(json));

export const presentAuditRow = (r: AuditRow): AuditEntryView => ({
  id: Number(r.id),
  at: new Date(Number(r.createdAt)).toISOString(),
  action: r.action,
  entityType: r.entityType,
  entityId: r.entityId,
  actor: { id: r.actorUserId === null ? null : Number(r.actorUserId), username: r.actorUsername },
  before: parsed(r.beforeJson),
  after: parsed(r.afterJson),
});

/** One record's trail, oldest first. */
export async function auditTrail(
  db: Knex,
  type: AuditEntity,
  id: number | string,
): Promise<AuditEntryView[]> {
  const rows = (await db('auditLog')
    .where({ entityType: type, entityId: String(id) })
    .orderBy('id', 'asc')
    .limit(500)) as AuditRow[];
  return rows.map(presentAuditRow);
}
