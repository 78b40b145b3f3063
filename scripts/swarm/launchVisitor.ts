// One visitor of a queued launch (docs/performance.md#launch-under-the-rush), as the bench's client
// processes (tests/load/launchClient.ts) and the swarm's --launch run it: registers (signed in, so
// it can pay), opens its Socket.IO connection as the competition page does, answers the skill
// question and joins the queue before the opening; once `queue:admitted` arrives it holds a Lucky
// Dip and pays through the sandbox card form. It records what the launch figures need.

import { io, type Socket } from 'socket.io-client';
import type { OrderView, PaymentIntentResponse } from '../../contract/checkout';
import type { QueueAdmittedEvent, QueuePositionEvent } from '../../contract/launchQueue';
import { TestClient } from '../../tests/support/httpClient';
import { registration } from './signUp';

export interface LaunchVisitorOptions {
  base: string;
  competitionId: number;
  /** A unique username (`@example.co.uk` is added for the e-mail). */
  label: string;
  cardNumber: string;
  /** The answer to a skill question's text. */
  answer: (question: string) => string;
  /** Also watch the competition's grid, as the page does. */
  watch: boolean;
  /**
   * Try one hold before being let in, once the first position says at least this many are ahead:
   * it must answer 403 queue_required. null: no probe.
   */
  probeAhead: number | null;
  /** Waits until the site's hold limits allow one more hold (the swarm's pacer); false: give up. */
  holdTurn?: () => Promise<boolean>;
}

/** What one visitor saw and did (plain data: it crosses the bench's IPC). */
export interface VisitorReport {
  label: string;
  userId: number | null;
  entryId: number | null;
  /** When POST /queue answered (epoch ms). */
  joinedAt: number | null;
  updates: Array<{ at: number; ahead: number }>;
  admittedSeenAt: number | null;
  /** `queue:admitted`'s expiresAt (epoch ms). */
  expiresAt: number | null;
  holdStatus: number | null;
  /** When the hold was sent (epoch ms) and how long its answer took. */
  holdAt: number | null;
  holdMs: number | null;
  /** Create-payment-intent, the card and the order read, in ms; null unless paid. */
  payMs: number | null;
  paid: number[];
  /** The early hold's answer: status and code. */
  probe: { status: number; code: string | null } | null;
  serverErrors: number;
  errors: string[];
}

/** What a launch's visitors did, summed: the hold and payment times, who paid, 5xx, who failed. */
export const visitorTotals = (reports: readonly VisitorReport[]) => ({
  holdMs: reports.filter((r) => r.holdStatus === 201).map((r) => r.holdMs!),
  payMs: reports.filter((r) => r.payMs !== null).map((r) => r.payMs!),
  paid: reports.filter((r) => r.paid.length > 0).length,
  serverErrors: reports.reduce((sum, r) => sum + r.serverErrors, 0),
  unfinished: reports.filter((r) => r.errors.length > 0).length,
});

/** A place refused by the per-address cap: the site needs a higher LAUNCH_QUEUE_PER_ADDRESS. */
export class PerAddressCapError extends Error {}

export class LaunchVisitor {
  readonly client: TestClient;
  private socket: Socket | undefined;
  private admittedNow: (() => void) | undefined;
  private readonly admitted = new Promise<void>((resolve) => {
    this.admittedNow = resolve;
  });
  private journey: Promise<void> | undefined;
  readonly report: VisitorReport;

  constructor(private readonly o: LaunchVisitorOptions) {
    this.client = new TestClient(o.base);
    this.report = {
      label: o.label,
      userId: null,
      entryId: null,
      joinedAt: null,
      updates: [],
      admittedSeenAt: null,
      expiresAt: null,
      holdStatus: null,
      holdAt: null,
      holdMs: null,
      payMs: null,
      paid: [],
      probe: null,
      serverErrors: 0,
      errors: [],
    };
  }

  /** One request; 5xx answers are counted. */
  private async send(method: string, path: string, body?: unknown) {
    const res = await this.client.request(method, path, body);
    if (res.status >= 500) this.report.serverErrors++;
    return res;
  }

  private fail(message: string): false {
    this.report.errors.push(`${this.o.label}: ${message}`);
    return false;
  }

  /** Registers, connects the socket and answers the skill question, then joins; false (recorded) on failure. */
  async prepare(): Promise<boolean> {
    return (await this.signUp()) && (await this.join());
  }

  /** Registers (signed in), connects the socket and answers the skill question; false (recorded) on failure. */
  async signUp(): Promise<boolean> {
    const { o } = this;
    try {
      await this.client.fetchCsrfToken();
      const reg = await this.send(
        'POST',
        '/api/register',
        registration(o.label, 'launch-Test-1234', 'Launch'),
      );
      if (reg.status !== 201) return this.fail(`register answered ${reg.status}: ${reg.body?.message ?? ''}`);
      this.report.userId = Number(reg.body?.id) || null;
      // Signing in gives a new session (and CSRF token); the socket carries the new session.
      await this.client.fetchCsrfToken();
      await this.connect();
      const shown = await this.send('GET', `/api/competitions/${o.competitionId}/skill-question`);
      if (shown.status !== 200) return this.fail(`the skill question answered ${shown.status}`);
      const skill = await this.send('POST', `/api/competitions/${o.competitionId}/skill-answer`, {
        answer: o.answer(String(shown.body.question)),
      });
      if (!skill.body?.correct) return this.fail(`the skill answer was refused (${skill.status})`);
      return true;
    } catch (err) {
      return this.fail((err as Error).message);
    }
  }

  /**
   * Joins the queue, then waits (in the background) to be let in, holds and pays. Throws
   * PerAddressCapError when the site's per-address cap refuses the place.
   */
  async join(): Promise<boolean> {
    try {
      const joined = await this.send('POST', `/api/competitions/${this.o.competitionId}/queue`);
      if (joined.status === 429 && /from your network/.test(joined.body?.message ?? ''))
        throw new PerAddressCapError(String(joined.body.message));
      if (joined.status !== 200)
        return this.fail(`joining answered ${joined.status}: ${joined.body?.message ?? ''}`);
      this.report.joinedAt = Date.now();
      this.report.entryId = Number(joined.body.entryId);
      this.journey = this.buy();
      return true;
    } catch (err) {
      if (err instanceof PerAddressCapError) throw err;
      return this.fail((err as Error).message);
    }
  }

  /** The page's socket: the site's Origin with the session cookie, so it joins the visitor's rooms. */
  private connect(): Promise<void> {
    const { base, competitionId } = this.o;
    const socket = io(base, {
      transports: ['websocket'],
      forceNew: true,
      extraHeaders: { Cookie: this.client.cookieHeader, Origin: new URL(base).origin },
    });
    this.socket = socket;
    socket.on('queue:position', (e: QueuePositionEvent) => {
      if (e.competitionId !== competitionId || this.report.admittedSeenAt !== null) return;
      this.report.updates.push({ at: Date.now(), ahead: e.ahead });
      if (this.report.updates.length === 1 && this.o.probeAhead !== null && e.ahead >= this.o.probeAhead)
        void this.probe();
    });
    socket.on('queue:admitted', (e: QueueAdmittedEvent) => {
      if (e.competitionId !== competitionId || this.report.admittedSeenAt !== null) return;
      this.report.admittedSeenAt = Date.now();
      this.report.expiresAt = Date.parse(e.expiresAt);
      this.admittedNow?.();
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the socket did not connect within 20 s')), 20_000);
      socket.once('connect', () => {
        clearTimeout(timer);
        if (!this.o.watch) return resolve();
        socket.emit('competition:watch', { competitionId }, () => resolve());
      });
    });
  }

  /** A hold while still waiting: the gate must refuse it (403 queue_required). */
  private async probe(): Promise<void> {
    const res = await this.send('POST', '/api/cart', { competitionId: this.o.competitionId, quantity: 1 });
    this.report.probe = { status: res.status, code: res.body?.code ?? null };
  }

  /** Once let in: a Lucky Dip of one, then the payment. */
  private async buy(): Promise<void> {
    await this.admitted;
    const { o, report } = this;
    try {
      if (o.holdTurn && !(await o.holdTurn())) return void this.fail('no hold allowed before the end');
      report.holdAt = Date.now();
      const started = performance.now();
      const held = await this.send('POST', '/api/cart', { competitionId: o.competitionId, quantity: 1 });
      report.holdMs = Math.round(performance.now() - started);
      report.holdStatus = held.status;
      if (held.status !== 201)
        return void this.fail(`hold answered ${held.status}: ${held.body?.message ?? ''}`);
      const paying = performance.now();
      const intent = await this.send('POST', '/api/create-payment-intent', {});
      if (intent.status !== 200 && intent.status !== 201)
        return void this.fail(
          `create-payment-intent answered ${intent.status}: ${intent.body?.message ?? ''}`,
        );
      const { clientSecret, orderId } = intent.body as PaymentIntentResponse;
      const paid = await this.send('POST', '/api/payments/sandbox/confirm', {
        clientSecret,
        cardNumber: o.cardNumber,
        expMonth: '12',
        expYear: '34',
        cvc: '123',
      });
      if (paid.status !== 200)
        return void this.fail(`the payment answered ${paid.status}: ${paid.body?.message ?? ''}`);
      const order = await this.send('GET', `/api/orders/${orderId}`);
      report.payMs = Math.round(performance.now() - paying);
      report.paid = (order.body as OrderView).items
        .filter((i) => i.competitionId === o.competitionId)
        .flatMap((i) => i.numbers);
    } catch (err) {
      this.fail((err as Error).message);
    }
  }

  /** Waits for the journey (admission, hold, payment) until `deadline` (epoch ms). */
  async done(deadline: number): Promise<VisitorReport> {
    if (this.journey) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
      });
      const outcome = await Promise.race([this.journey.then(() => 'done' as const), late]);
      clearTimeout(timer);
      if (outcome === 'late')
        this.fail(this.report.admittedSeenAt === null ? 'never admitted' : 'not done by the end');
    }
    return this.report;
  }

  close(): void {
    this.socket?.close();
  }
}
