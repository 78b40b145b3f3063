import type { Knex } from 'knex';
import { engineOfKnex } from './dialect';

// Several statements in one round trip. Once a hold runs on one connection (pinnedConnection.ts),
// its time is its round trips to the database, so the hold path sends the reads it needs, and
// then the writes, as one batch each (docs/performance.md, "What changed in the sixth round").
//
// On MySQL/MariaDB the statements go as one multi-statement query (mysql2's multipleStatements,
// knexfile.ts): the server runs them in order and stops at the first error, which rejects the
// batch. Every statement is compiled by knex with its values as bindings, never spliced in. On
// SQLite, which is in-process, they simply run one after another.

/** What a statement returned, before decoding: rows for a read, the driver's header for a write. */
export type RawResult = unknown;

/** One statement of a batch and how to read its result. */
export interface Batched<T> {
  statement: Knex.QueryBuilder | Knex.Raw;
  decode: (result: RawResult) => T;
}

/** A read whose rows are decoded by `decode` (default: the rows themselves). */
export const read = <R, T = R[]>(
  statement: Knex.QueryBuilder | Knex.Raw,
  decode: (rows: R[]) => T = (rows) => rows as unknown as T,
): Batched<T> => ({ statement, decode: (result) => decode(result as R[]) });

/** A write whose result nobody needs. */
export const write = (statement: Knex.QueryBuilder | Knex.Raw): Batched<void> => ({
  statement,
  decode: () => undefined,
});

/** A batch's entries; an entry left undefined (a read this request does not need) is skipped. */
type Entries = readonly (Batched<unknown> | undefined)[];

/** An entry's decoded result; undefined for a skipped entry (distributes over a union). */
type Decoded<E> = E extends Batched<infer R> ? R : undefined;

export type Results<T extends Entries> = { -readonly [K in keyof T]: Decoded<T[K]> };

/**
 * Runs the statements in order on `db` (a transaction, so that they share its connection and
 * snapshot) and returns each one's decoded result.
 */
export async function runBatch<const T extends Entries>(db: Knex, ...entries: T): Promise<Results<T>> {
  const batch = entries.filter((b): b is Batched<unknown> => b !== undefined);
  const compiled = batch.map((b) => b.statement.toSQL().toNative());
  const results: RawResult[] = [];
  if (batch.length && engineOfKnex(db) === 'mysql') {
    // mysql2 answers [results, fields]: one result per statement when there are several, rows or
    // a write's header. knex maps the keys of a raw answer's rows only one level down, so the
    // rows of each statement are mapped here.
    const [answer] = (await db.raw(
      compiled.map((c) => c.sql).join(';\n'),
      compiled.flatMap((c) => c.bindings as Knex.RawBinding[]),
    )) as [RawResult];
    const each = batch.length > 1 ? (answer as RawResult[]) : [answer];
    const map = db.client.config.postProcessResponse as ((r: unknown, c: unknown) => unknown) | undefined;
    for (const r of each) results.push(Array.isArray(r) && map ? map(r, undefined) : r);
  } else {
    // better-sqlite3 answers the rows of a read (keys already mapped), or run()'s info of a write.
    for (const c of compiled) results.push(await db.raw(c.sql, c.bindings as Knex.RawBinding[]));
  }
  let next = 0;
  return entries.map((b) => (b ? b.decode(results[next++]) : undefined)) as Results<T>;
}
