// The chosen numbers this process is holding right now: a hold's unit of work from its start to
// its COMMIT or ROLLBACK. A hold on a number in flight waits for that hold to end, outside any
// transaction, then looks again (reservations.ts): on a hot number the losers get their 409 from
// two plain reads instead of blocking on the winner's row lock in a transaction of a dozen
// statements. Holds in other processes still meet on the unique key, as before.

const keyOf = (competitionId: number, n: number) => `${competitionId}:${n}`;

export class HoldsInFlight {
  private numbers = new Map<string, Promise<unknown>>();

  /** The holds in flight on any of these numbers (none: nothing to wait for). */
  pending(competitionId: number, numbers: number[]): Promise<unknown>[] {
    const found = new Set<Promise<unknown>>();
    for (const n of numbers) {
      const hold = this.numbers.get(keyOf(competitionId, n));
      if (hold) found.add(hold);
    }
    return [...found];
  }

  /** Runs `work` with these numbers in flight until it settles. */
  run<T>(competitionId: number, numbers: number[], work: () => Promise<T>): Promise<T> {
    const hold = work();
    const keys = numbers.map((n) => keyOf(competitionId, n));
    for (const key of keys) this.numbers.set(key, hold);
    const done = () => {
      for (const key of keys) if (this.numbers.get(key) === hold) this.numbers.delete(key);
    };
    hold.then(done, done);
    return hold;
  }
}
