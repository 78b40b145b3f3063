import type { Knex } from 'knex';
import { engineOfKnex } from './dialect';
import { type Batched, runBatch } from './statementBatch';

/**
 * Adds one to a counter row (creating it at 1); decodes to the new value. One statement on either
 * engine, for a statement batch (db/statementBatch.ts). Run last in a transaction: the row stays
 * locked only until COMMIT, which orders the changes it counts.
 */
export function counterBumpForBatch(
  trx: Knex,
  table: string,
  keyColumn: string,
  key: string | number,
  valueColumn: string,
): Batched<number> {
  if (engineOfKnex(trx) === 'mysql') {
    // LAST_INSERT_ID(expr) makes the server return the new value as this statement's insert id.
    return {
      statement: trx.raw(
        'INSERT INTO ?? (??, ??) VALUES (?, 1) ON DUPLICATE KEY UPDATE ?? = LAST_INSERT_ID(?? + 1)',
        [table, keyColumn, valueColumn, key, valueColumn, valueColumn],
      ),
      decode: (result) => {
        const header = result as { affectedRows: number; insertId: number };
        return header.affectedRows === 1 ? 1 : Number(header.insertId);
      },
    };
  }
  return {
    statement: trx.raw(
      'INSERT INTO ?? (??, ??) VALUES (?, 1) ON CONFLICT (??) DO UPDATE SET ?? = ?? + 1 RETURNING ??',
      [table, keyColumn, valueColumn, key, keyColumn, valueColumn, valueColumn, valueColumn],
    ),
    decode: (result) => Number(Object.values((result as Array<Record<string, number>>)[0]!)[0]),
  };
}

/** counterBumpForBatch on its own: adds one to the counter and returns the new value. */
export async function bumpCounterNow(
  trx: Knex.Transaction,
  table: string,
  keyColumn: string,
  key: string | number,
  valueColumn: string,
): Promise<number> {
  const [value] = await runBatch(trx, counterBumpForBatch(trx, table, keyColumn, key, valueColumn));
  return value;
}
