import type { Connection } from 'mysql2';
import { isRetryableTxError, isUniqueViolation } from '../../../db/dialect';
import { CartItem, Competition } from '../../../db/models';
import type { DomainEvents, EventBus } from '../../platform/events';
import { publishOrderOf, transactionStats } from '../../platform/unitOfWork';
import { type CartEntry, cartEntries } from '../cartQueries';
import type { CartRead } from '../cartRevision';

// What both hot-path procedures share (db/migrations/051_hold_procedures.ts): the CALL as a mysql2
// prepared statement on the request's pinned pool connection, the cart it reads back before its
// COMMIT, and the events it produced published in version order after it.

type Row = Record<string, unknown>;

/** A procedure's answer: the result sets it selected, the status row last. */
export interface ProcedureAnswer {
  status: Row;
  sets: Row[][];
}

/**
 * Runs `CALL name(?, ...)` as a prepared statement (mysql2 keeps it prepared per connection).
 * The procedure commits or rolls back itself, in this one round trip.
 */
export function callProcedure(
  connection: Connection,
  name: string,
  params: unknown[],
): Promise<ProcedureAnswer> {
  const sql = `CALL ${name}(${params.map(() => '?').join(', ')})`;
  return new Promise((resolve, reject) => {
    connection.execute(sql, params as never, (err, result: unknown) => {
      if (err) return reject(err);
      // mysql2 answers each result set, then the CALL's own header.
      const sets = (result as unknown[]).filter((r): r is Row[] => Array.isArray(r));
      resolve({ status: sets.at(-1)?.[0] ?? {}, sets });
    });
  });
}

/** A procedure failed on a race the general path handles (a deadlock, a number taken meanwhile). */
export function isRaceLost(err: unknown): boolean {
  if (isRetryableTxError(err)) {
    transactionStats.deadlockRetries++;
    return true;
  }
  if (isUniqueViolation(err)) {
    transactionStats.collisionRetries++;
    return true;
  }
  return false;
}

/** The cart the procedure read back (items, their competitions, held numbers), as readCart answers it. */
export function cartOf([items, competitions, held]: Row[][], revision: number): CartRead {
  const heldBy = new Map<number, number[]>();
  for (const r of held ?? []) {
    const id = Number(r.cartItemId);
    heldBy.set(id, [...(heldBy.get(id) ?? []), Number(r.number)]);
  }
  const entries: CartEntry[] = cartEntries(
    (items ?? []).map((r) => CartItem.fromDatabaseJson(r)),
    (competitions ?? []).map((r) => Competition.fromDatabaseJson(r)),
    heldBy,
  );
  return { entries, revision };
}

/** A comma-separated list of numbers (GROUP_CONCAT), ascending. */
export const numbersOf = (list: unknown): number[] =>
  list === null || list === undefined || list === ''
    ? []
    : String(list)
        .split(',')
        .map(Number)
        .sort((a, b) => a - b);

/** Records an event of the procedure's answer, published after it in version order. */
export type Emit = <K extends keyof DomainEvents>(type: K, payload: DomainEvents[K]) => void;

/**
 * Calls a procedure that commits in its own round trip, in this process's publication order
 * (unitOfWork.ts PublishOrder): the unit is expected on `competitionId` (null: known only from the
 * answer) before the CALL; the events `changes` emits from the answer go out once every earlier
 * version of their competition has, as a unit of work's do after its COMMIT. Answers undefined,
 * with nothing written, when the procedure fell back (`accept` says no) or lost a race the general
 * path handles.
 */
export async function callInOrder(
  events: EventBus,
  competitionId: number | null,
  call: () => Promise<ProcedureAnswer>,
  accept: (answer: ProcedureAnswer) => boolean,
  changes: (answer: ProcedureAnswer, emit: Emit) => void,
): Promise<ProcedureAnswer | undefined> {
  const place = publishOrderOf(events).open();
  place.expect(competitionId);
  try {
    const answer = await call();
    if (!accept(answer)) return undefined;
    const recorded: Array<{ type: keyof DomainEvents; payload: unknown }> = [];
    changes(answer, (type, payload) => {
      recorded.push({ type, payload });
      const { competitionId: id, version } = payload as { competitionId?: unknown; version?: unknown };
      if (typeof id === 'number' && typeof version === 'number') place.record(id, version);
    });
    await place.turn();
    for (const e of recorded) events.publish(e.type, e.payload as never);
    return answer;
  } catch (err) {
    if (isRaceLost(err)) return undefined;
    throw err;
  } finally {
    place.settle();
  }
}
