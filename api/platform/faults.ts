// Named crash points for testing what happens when the process dies mid-purchase
// (docs/architecture.md#what-happens-when-it-crashes). FAULT_INJECTION=after-capture@3 makes the
// process kill itself with SIGKILL the third time it reaches that point: no clean-up, no finally
// blocks, exactly like a power cut. config/variables.ts refuses the variable when NODE_ENV=production.

export const FAULT_POINTS = [
  /** The gateway made the payment intent; the order does not name it yet. */
  'after-intent-created',
  /** The sandbox took the money; fulfilment has not started. */
  'after-capture',
  /** The sale is committed; its confirmation e-mail is not sent yet. */
  'after-sale-committed',
  /** The reconciler claimed a payment; it has not settled it yet. */
  'after-reconcile-claim',
  /** A draw is committed; its e-mails are not sent yet. */
  'after-draw-committed',
  /** An outbox e-mail went to the mail server; its row is not marked sent yet. */
  'after-mail-sent',
  /** Not a crash: the n-th outbox send throws, as a mail server that is down would. */
  'mail-send-fails',
  /** Not a crash: the n-th card refund of part of an order throws, as a gateway that is down would. */
  'partial-refund-fails',
  /** A bulk refund refunded an order; its job row does not say so yet. */
  'after-bulk-refund-order',
] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

/** point -> the hit (1-based) at which the process dies. */
export type FaultPlan = ReadonlyMap<FaultPoint, number>;

/** Parses `point@n,point@n` (n defaults to 1); throws with the reason on anything else. */
export function parseFaultPlan(spec: string): FaultPlan {
  const plan = new Map<FaultPoint, number>();
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, at = '1'] = part.split('@');
    if (!FAULT_POINTS.includes(name as FaultPoint)) {
      throw new Error(`unknown fault point "${name}" (known: ${FAULT_POINTS.join(', ')})`);
    }
    if (!/^[1-9]\d{0,5}$/.test(at))
      throw new Error(`"${part}": the hit after @ must be a whole number from 1`);
    plan.set(name as FaultPoint, Number(at));
  }
  return plan;
}

/** Counts the hits of each armed point and kills the process at the planned one. */
export class FaultInjector {
  private readonly hits = new Map<FaultPoint, number>();

  constructor(private readonly plan: FaultPlan = new Map()) {}

  get armed(): boolean {
    return this.plan.size > 0;
  }

  reach(point: FaultPoint): void {
    if (this.hit(point)) {
      process.stderr.write(`fault injection: SIGKILL at ${point}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  }

  /** Throws at the planned hit of a point instead of killing the process (`mail-send-fails`). */
  fail(point: FaultPoint): void {
    if (this.hit(point)) throw new Error(`fault injection: ${point}`);
  }

  /** Counts a hit; true at the planned one. */
  private hit(point: FaultPoint): boolean {
    const at = this.plan.get(point);
    if (at === undefined) return false;
    const hit = (this.hits.get(point) ?? 0) + 1;
    this.hits.set(point, hit);
    return hit === at;
  }
}
