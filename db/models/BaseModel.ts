import { Model, type Pojo } from 'objection';

/**
 * Shared model behaviour: epoch-millisecond timestamps set on write, booleans read back as booleans
 * (MySQL and SQLite both return 0/1), and JSON text columns parsed via jsonAttributes.
 */
export class BaseModel extends Model {
  /** Columns (camelCase) stored as 0/1 that should read as booleans. */
  static booleanAttributes: readonly string[] = [];
  /** Set false on tables without updated_at. */
  static hasUpdatedAt = true;
  static hasCreatedAt = true;

  override $beforeInsert() {
    const now = Date.now();
    const self = this as unknown as Record<string, unknown>;
    const ctor = this.constructor as typeof BaseModel;
    if (ctor.hasCreatedAt && self.createdAt === undefined) self.createdAt = now;
    if (ctor.hasUpdatedAt && self.updatedAt === undefined) self.updatedAt = now;
  }

  override $beforeUpdate() {
    if ((this.constructor as typeof BaseModel).hasUpdatedAt) {
      (this as unknown as Record<string, unknown>).updatedAt = Date.now();
    }
  }

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    for (const key of (this.constructor as typeof BaseModel).booleanAttributes) {
      if (key in parsed && parsed[key] !== null) parsed[key] = Boolean(parsed[key]);
    }
    return parsed;
  }
}
