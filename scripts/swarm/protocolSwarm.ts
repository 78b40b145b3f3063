// --protocol: the same journeys as the browsers, by thousands of lightweight clients, each an HTTP
// session (cookies, CSRF) with its own Socket.IO connection watching the competition, as a page
// would. One more socket is the watcher: staleness is the time from a buyer's request to the
// watcher's event for that number.
import { io, type Socket } from 'socket.io-client';
import type { CartChangeView } from '../../contract/cart';
import type { OrderView, PaymentIntentResponse } from '../../contract/checkout';
import type { TicketsBatchEvent, TicketsEvent } from '../../contract/realtime';
import { TestClient } from '../../tests/support/httpClient';
import { SwarmCustomer, sleep } from './customer';
import type { SwarmMode, SwarmRun } from './mode';
import { dealJourneys, type Journey, type SwarmOptions } from './options';
import type { HoldPacer } from './pacer';
import { answerTo, type Preflight } from './preflight';
import type { Recorder, WatchedState } from './recorder';
import { registration, signUpAll } from './signUp';

const HOT_SPREAD = 4;
const SIGN_UP_CONCURRENCY = 16;
/** A person's pause between steps, so that clients are customers rather than a request flood. */
const think = () => sleep(300 + Math.random() * 900);

/** The lowest free numbers, as the watcher's events tell them (what a page's grid shows). */
class FreeNumbers {
  private readonly taken: Uint8Array;
  constructor(
    private readonly total: number,
    available: number[],
  ) {
    this.taken = new Uint8Array(total + 1).fill(1);
    for (const n of available) this.taken[n] = 0;
  }
  set(numbers: number[], taken: boolean): void {
    for (const n of numbers) if (n >= 1 && n <= this.total) this.taken[n] = taken ? 1 : 0;
  }
  /** A random one of the lowest `spread` free numbers; undefined when sold out. */
  hotPick(spread: number): number | undefined {
    const lowest: number[] = [];
    for (let n = 1; n <= this.total && lowest.length < spread; n++) if (!this.taken[n]) lowest.push(n);
    return lowest[Math.floor(Math.random() * lowest.length)];
  }
}

function watch(base: string, competitionId: number, cookie?: string): Promise<Socket> {
  const socket = io(base, {
    transports: ['websocket'],
    reconnection: true,
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket did not connect within 20 s')), 20_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.emit('competition:watch', { competitionId }, () => resolve(socket));
    });
  });
}

interface Setup {
  options: SwarmOptions;
  pre: Preflight;
  recorder: Recorder;
  pacer: HoldPacer;
  free: FreeNumbers;
}

class ProtocolCustomer extends SwarmCustomer {
  private readonly client: TestClient;
  private socket: Socket | undefined;

  constructor(
    label: string,
    journey: Journey,
    private readonly setup: Setup,
  ) {
    super(
      label,
      journey,
      setup.recorder,
      setup.pacer,
      setup.options.competitionId,
      setup.pre.competition.maxTicketsPerUser,
    );
    this.client = new TestClient(setup.options.base);
  }

  get(path: string) {
    return this.client.get(path);
  }

  /** One request; a 5xx or a network failure counts as a failed request. */
  private async send(method: string, path: string, body?: unknown) {
    try {
      const res = await this.client.request(method, path, body);
      if (res.status >= 500) this.setup.recorder.failedRequest(`${method} ${path}: ${res.status}`);
      return res;
    } catch (err) {
      this.setup.recorder.failedRequest(`${method} ${path}: ${(err as Error).message}`);
      throw err;
    }
  }

  /** Registers (signed in), opens the socket and answers the skill question; false (recorded) on failure. */
  async signUp(): Promise<boolean> {
    const { recorder, options, pre } = this.setup;
    try {
      await this.client.fetchCsrfToken();
      const started = Date.now();
      const res = await this.send(
        'POST',
        '/api/register',
        registration(this.label, 'swarm-Test-1234', 'Swarm'),
      );
      if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.body?.message ?? ''}`);
      recorder.step('register', started);
      // Signing in gives a new session (and CSRF token).
      await this.client.fetchCsrfToken();
      this.socket = await watch(options.base, options.competitionId, this.client.cookieHeader);
      const asked = Date.now();
      // Each customer is asked a random question of the competition's pool.
      const shown = await this.send('GET', `/api/competitions/${options.competitionId}/skill-question`);
      if (shown.status !== 200) throw new Error(`the skill question answered ${shown.status}`);
      const answer = answerTo(pre.answers, String(shown.body.question));
      const skill = await this.send('POST', `/api/competitions/${options.competitionId}/skill-answer`, {
        answer,
      });
      if (!skill.body?.correct) throw new Error(`the skill answer '${answer}' was refused (${skill.status})`);
      recorder.step('skill', asked);
    } catch (err) {
      recorder.error(`${this.label} register: ${(err as Error).message}`);
      this.socket?.close();
      return false;
    }
    recorder.customers++;
    return true;
  }

  protected async journeyOnce(): Promise<void> {
    await think();
    if (this.journey === 'abandon') return this.abandon();
    if (!(await this.hold())) return;
    await think();
    await this.pay();
  }

  /** One hold; false after a lost race for a hot number (a conflict, shown to the customer) or at the end. */
  private async hold(): Promise<number[] | false> {
    const { options, recorder, free, pre } = this.setup;
    if (!(await this.pacer.take(this.session, this.deadline))) return false;
    // Picked once the hold may go, from the grid as it is then.
    const room = pre.competition.maxTicketsPerUser - this.paid.size - this.held.size;
    let body: object;
    if (this.journey === 'hot') {
      const n = free.hotPick(HOT_SPREAD);
      if (n === undefined) throw new Error('no number is free');
      body = { competitionId: options.competitionId, quantity: 1, selectedNumbers: [n] };
    } else
      body = {
        competitionId: options.competitionId,
        quantity: Math.min(room, 1 + Math.floor(Math.random() * 2)),
      };
    const started = Date.now();
    const res = await this.send('POST', '/api/cart', body);
    if (res.status === 409 && res.body?.code === 'number_taken') {
      recorder.conflict();
      return false;
    }
    if (res.status !== 201) throw new Error(`hold answered ${res.status}: ${res.body?.message ?? ''}`);
    recorder.step('hold', started);
    const now = (res.body as CartChangeView).cart
      .filter((i) => i.competitionId === options.competitionId)
      .flatMap((i) => i.heldNumbers);
    const added = now.filter((n) => !this.held.has(n));
    for (const n of now) this.held.add(n);
    recorder.action('hold', added, started);
    return added;
  }

  private async pay(): Promise<void> {
    const { options, recorder } = this.setup;
    let started = Date.now();
    const intent = await this.send('POST', '/api/create-payment-intent', {});
    if (intent.status !== 200 && intent.status !== 201)
      throw new Error(`create-payment-intent answered ${intent.status}: ${intent.body?.message ?? ''}`);
    recorder.step('checkout', started);
    const { clientSecret, orderId } = intent.body as PaymentIntentResponse;
    await think();
    const [expMonth, expYear] = ['12', '34'];
    started = Date.now();
    const paid = await this.send('POST', '/api/payments/sandbox/confirm', {
      clientSecret,
      cardNumber: options.cardNumber,
      expMonth,
      expYear,
      cvc: '123',
    });
    if (paid.status !== 200)
      throw new Error(`the payment answered ${paid.status}: ${paid.body?.message ?? ''}`);
    recorder.step('pay', started);
    const order = await this.send('GET', `/api/orders/${orderId}`);
    const numbers = (order.body as OrderView).items
      .filter((i) => i.competitionId === options.competitionId)
      .flatMap((i) => i.numbers);
    for (const n of numbers) this.paid.add(n);
    this.held.clear();
    recorder.action('purchase', numbers, started);
  }

  private async abandon(): Promise<void> {
    const numbers = await this.hold();
    if (!numbers) return;
    const cart = await this.send('GET', '/api/cart');
    const expiresAt = Math.max(
      ...(cart.body as Array<{ expiresAt: string }>).map((i) => Date.parse(i.expiresAt)),
    );
    if (expiresAt >= this.deadline) {
      await sleep(Math.max(0, this.deadline - Date.now()));
      return;
    }
    await sleep(expiresAt - Date.now() + 500);
    this.setup.recorder.action('release', numbers, expiresAt);
    for (const n of numbers) this.held.delete(n);
  }

  close(): void {
    this.socket?.close();
  }
}

export async function runProtocol({ options, pre, recorder, pacer, runId }: SwarmMode): Promise<SwarmRun> {
  const visitor = new TestClient(options.base);
  const available = await visitor.get(`/api/competitions/${options.competitionId}/available-tickets`);
  const free = new FreeNumbers(pre.competition.totalTickets, available.body as number[]);
  const watcher = await watch(options.base, options.competitionId);
  const seen = (state: WatchedState, taken: boolean) => (event: TicketsEvent) => {
    if (event.competitionId !== options.competitionId) return;
    const at = Date.now();
    free.set(event.numbers, taken);
    for (const n of event.numbers) recorder.watched(n, state, at);
  };
  const onReserved = seen('reserved', true);
  const onPurchased = seen('sold', true);
  const onReleased = seen('available', false);
  watcher.on('tickets:reserved', onReserved);
  watcher.on('tickets:purchased', onPurchased);
  watcher.on('tickets:released', onReleased);
  // A burst's changes may come coalesced: each is what its single event would have said.
  const byType = { reserved: onReserved, purchased: onPurchased, released: onReleased };
  watcher.on('tickets:batch', ({ competitionId, changes }: TicketsBatchEvent) => {
    for (const { type, version, numbers } of changes) byType[type]({ competitionId, version, numbers });
  });

  const setup: Setup = { options, pre, recorder, pacer, free };
  const customers = dealJourneys(options.mix, options.clients).map(
    (journey, i) => new ProtocolCustomer(`swarm${runId}p${i}`, journey, setup),
  );
  // Sign-up first (a password hash each, the slow part on a small machine), then the clock starts.
  const ready = await signUpAll(customers, SIGN_UP_CONCURRENCY);
  recorder.begin();
  const deadline = Date.now() + options.durationSeconds * 1000;
  await Promise.all(ready.map((c) => c.shop(deadline)));
  return {
    customers,
    isWatched: () => true,
    watchedNumbers: () => pre.competition.totalTickets,
    finalViolations: async () => [],
    async close() {
      for (const c of customers) c.close();
      watcher.close();
    },
  };
}
