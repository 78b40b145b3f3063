import type { CartOwner } from '../cartQueries';
import { cartKeyOf } from '../cartRevision';

// The chosen numbers this process is holding right now: a hold's unit of work from its start to
// its COMMIT or ROLLBACK, and whose it is. Someone else's hold in flight on a number refuses a
// request for it at once, from memory (refuseTaken.ts): on a hot number the losers get their 409
// without a read, instead of waiting for the winner and reading again, or blocking on the winner's
// row lock in a transaction of a dozen statements. The same person's hold in flight (a double
// click) is waited for, then the numbers are looked at again: the second request answers with the
// line the first one made. Holds in other processes still meet on the unique key, as before.

const keyOf = (competitionId: number, n: number) => `${competitionId}:${n}`;

export class HoldsInFlight {
  private numbers = new Map<string, { hold: Promise<unknown>; owner: string }>();

  /** The numbers of these that someone other than `owner` is holding right now. */
  takenByOthers(competitionId: number, numbers: number[], owner: CartOwner): number[] {
    const mine = cartKeyOf(owner);
    return numbers.filter((n) => {
      const found = this.numbers.get(keyOf(competitionId, n));
      return found !== undefined && found.owner !== mine;
    });
  }

  /** The holds in flight on any of these numbers (none: nothing to wait for). */
  pending(competitionId: number, numbers: number[]): Promise<unknown>[] {
    const found = new Set<Promise<unknown>>();
    for (const n of numbers) {
      const hold = this.numbers.get(keyOf(competitionId, n))?.hold;
      if (hold) found.add(hold);
    }
    return [...found];
  }

  /** Runs `work`, the owner's hold of these numbers, with them in flight until it settles. */
  run<T>(competitionId: number, numbers: number[], owner: CartOwner, work: () => Promise<T>): Promise<T> {
    const hold = work();
    const entry = { hold, owner: cartKeyOf(owner) };
    const keys = numbers.map((n) => keyOf(competitionId, n));
    for (const key of keys) this.numbers.set(key, entry);
    const done = () => {
      for (const key of keys) if (this.numbers.get(key) === entry) this.numbers.delete(key);
    };
    hold.then(done, done);
    return hold;
  }
}
