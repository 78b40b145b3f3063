// One customer in one isolated browser context, going through the real UI: register, answer the
// skill question, hold numbers (hot, Lucky Dip or held and abandoned) and pay with the test card.
import type { BrowserContext, Locator, Page, Response } from '@playwright/test';
import type { CartChangeView } from '../../contract/cart';
import type { OrderView } from '../../contract/checkout';
import { SwarmCustomer, sleep } from './customer';
import type { Journey } from './options';
import type { HoldPacer } from './pacer';
import { answerTo } from './preflight';
import type { Recorder } from './recorder';

export interface CustomerSetup {
  base: string;
  competitionId: number;
  /** The competition's per-person cap. */
  cap: number;
  answers: Map<string, string>;
  cardNumber: string;
  recorder: Recorder;
  pacer: HoldPacer;
}

/** The hot journey's fight: a random one of the lowest free numbers in the selector. */
const HOT_SPREAD = 4;
const PASSWORD = 'swarm-Test-1234';
const RUN_ENDED = 'the run ended while the hold waited for the hold limits';
const visibleWithin = (locator: Locator, ms: number) =>
  locator.waitFor({ timeout: ms }).then(
    () => true,
    () => false,
  );

/**
 * The selector grid renders only the rows in view: once the lowest numbers are sold, the free ones
 * are further down, so it scrolls a box at a time until one is rendered.
 */
async function scrollToFree(grid: Locator, free: Locator): Promise<void> {
  await grid.locator('[data-number]').first().waitFor();
  for (;;) {
    if ((await free.count()) > 0) return;
    const moved = await grid.evaluate((el) => {
      const before = el.scrollTop;
      el.scrollTop = before + el.clientHeight;
      return el.scrollTop !== before;
    });
    if (!moved) throw new Error('no free number is left in the selector');
    // The virtualiser renders the new rows on the frames after the scroll.
    await grid
      .page()
      .evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
}

/** Resolves null once the selector shows its selection dropped (a number taken while selected). */
const dropped = (selector: Locator): Promise<null> =>
  selector
    .getByText('Selected 0 of 1')
    .waitFor()
    .then(
      () => null,
      () => null,
    );

/** Counts each 'just taken by another user' message the page shows (the one toast at a time). */
const CONFLICT_OBSERVER = `(() => {
  let last = '';
  const check = () => {
    const text = document.querySelector('[data-testid="toast"]')?.textContent ?? '';
    if (text === last) return;
    last = text;
    if (text.includes('just taken by another user')) window.__swarmConflict(Date.now());
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

export class BrowserCustomer extends SwarmCustomer {
  private page!: Page;

  constructor(
    label: string,
    private readonly context: BrowserContext,
    journey: Journey,
    private readonly setup: CustomerSetup,
  ) {
    super(label, journey, setup.recorder, setup.pacer, setup.competitionId, setup.cap);
  }

  async get(path: string) {
    const res = await this.context.request.get(this.setup.base + path);
    return { status: res.status(), body: await res.json().catch(() => undefined) };
  }

  /** Opens the page and registers; false (recorded) when that fails. */
  async signUp(): Promise<boolean> {
    const { recorder } = this.setup;
    await this.context.exposeBinding('__swarmConflict', (_source, at: number) => recorder.conflict(at));
    await this.context.addInitScript(CONFLICT_OBSERVER);
    this.context.setDefaultTimeout(20_000);
    this.page = await this.context.newPage();
    this.page.on('console', (msg) => {
      if (msg.type() === 'error') recorder.consoleErrors++;
    });
    const pathOf = (url: string) => new URL(url).pathname;
    this.page.on('requestfailed', (req) => {
      const failure = req.failure()?.errorText ?? 'failed';
      // A fetch cut short by the page moving on (a link, a navigation) is the browser's, not a failure.
      if (failure !== 'net::ERR_ABORTED')
        recorder.failedRequest(`${req.method()} ${pathOf(req.url())}: ${failure}`);
    });
    this.page.on('response', (res) => {
      if (res.status() >= 500)
        recorder.failedRequest(`${res.request().method()} ${pathOf(res.url())}: ${res.status()}`);
    });
    try {
      await this.register();
    } catch (err) {
      recorder.error(`${this.label} register: ${(err as Error).message}`);
      return false;
    }
    recorder.customers++;
    return true;
  }

  protected journeyOnce() {
    return this.journey === 'abandon' ? this.abandon() : this.buy();
  }

  private async register(): Promise<void> {
    const page = this.page;
    const username = this.label;
    await page.goto(`${this.setup.base}/auth?tab=register`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(`${username}@example.co.uk`);
    await page.getByLabel(/^First name/).fill('Swarm');
    await page.getByLabel(/^Last name/).fill('Tester');
    await page.getByLabel('Phone number').fill('07700 900123');
    // Issue 18 adds a required date of birth; fill it wherever the form has it.
    const dateOfBirth = page.getByLabel('Date of birth');
    if (await dateOfBirth.count()) await dateOfBirth.fill('1990-04-01');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    for (const box of [
      'I confirm that I am 18 years of age or over',
      'I confirm that I am a UK resident',
      /I agree to the Terms and Conditions/,
    ]) {
      const checkbox = page.getByLabel(box);
      if (await checkbox.count()) await checkbox.check();
    }
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Registration successful').waitFor();
    this.recorder.step('register', clicked);
  }

  private async openCompetition(): Promise<void> {
    await this.page.goto(`${this.setup.base}/competition/${this.setup.competitionId}`);
  }

  /** Answers the skill question if the page asks it (once per page visit) before `next` happens. */
  private async answerSkillIfAsked(next: Promise<unknown>): Promise<void> {
    const dialog = this.page.getByTestId('skill-dialog');
    const asked = await Promise.race([
      dialog.waitFor().then(
        () => true,
        () => false,
      ),
      next.then(
        () => false,
        () => false,
      ),
    ]);
    if (!asked) return;
    const question = (await dialog.locator('legend').textContent()) ?? '';
    await dialog.getByLabel(answerTo(this.setup.answers, question), { exact: true }).check();
    const clicked = Date.now();
    await dialog.getByRole('button', { name: 'Submit Answer' }).click();
    const correct = dialog.getByText('Correct! Proceeding...');
    await correct.or(dialog.getByText('Incorrect')).first().waitFor();
    if (!(await correct.isVisible())) throw new Error(`the answer to '${question}' was refused`);
    this.recorder.step('skill', clicked);
  }

  /** Numbers this hold added, from the cart the POST /api/cart answered with. */
  private async newlyHeld(res: Response): Promise<number[]> {
    const body = (await res.json()) as CartChangeView;
    const now = body.cart
      .filter((i) => i.competitionId === this.setup.competitionId)
      .flatMap((i) => i.heldNumbers);
    const added = now.filter((n) => !this.held.has(n));
    for (const n of now) this.held.add(n);
    return added;
  }

  private cartAnswer(): Promise<Response> {
    return this.page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/cart',
    );
  }

  /** 'hot': picks one of the lowest free numbers in the selector; a lost race is a conflict, tried again. */
  private async holdHot(): Promise<void> {
    const page = this.page;
    await page.getByRole('button', { name: 'Select Lucky Numbers' }).click();
    const selector = page.getByTestId('number-selector');
    await this.answerSkillIfAsked(selector.waitFor());
    const grid = selector.getByTestId('selector-grid');
    for (;;) {
      if (Date.now() >= this.deadline) throw new Error('the run ended before a hot number was held');
      const free = grid.locator('[data-state="available"]');
      await scrollToFree(grid, free);
      const pick = Math.floor(Math.random() * Math.min(HOT_SPREAD, await free.count()));
      await free.nth(pick).click();
      // Taken while selected: the selector drops it with a toast (counted by the observer).
      if (!(await visibleWithin(selector.getByText('Selected 1 of 1'), 2000))) continue;
      if (!(await this.pacer.take(this.session, this.deadline))) throw new Error(RUN_ENDED);
      const confirm = selector.getByRole('button', { name: 'Confirm Selection' });
      const answer = this.cartAnswer();
      answer.catch(() => undefined); // abandoned below when the number went before the click
      // Taken after the check: the selector drops it and disables Confirm; no request is sent.
      if (!(await confirm.isEnabled())) continue;
      const clicked = Date.now();
      await confirm.click({ timeout: 2000 }).catch(() => undefined);
      const res = await Promise.race([answer, dropped(selector)]);
      if (res === null) continue;
      if (res.status() === 409) continue; // 'Number N was just taken by another user.'
      if (res.status() !== 201) throw new Error(`holding a hot number answered ${res.status()}`);
      await page.getByTestId('added-dialog').getByRole('heading', { name: 'Added to Cart!' }).waitFor();
      this.recorder.step('hold', clicked);
      this.recorder.action('hold', await this.newlyHeld(res), clicked);
      await page.getByTestId('added-dialog').getByRole('button', { name: 'View Cart' }).click();
      await page.waitForURL(/\/cart$/);
      return;
    }
  }

  /**
   * 'lucky' (and 'abandon'): Buy Now takes a Lucky Dip and opens the cart. Timed from its request:
   * the first click waits out the skill question's designed 1.5 s 'Correct! Proceeding...' pause.
   */
  private async holdLuckyDip(): Promise<number[]> {
    const page = this.page;
    const room = this.setup.cap - this.paid.size - this.held.size;
    const quantity = Math.min(room, 1 + Math.floor(Math.random() * 2));
    for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'More tickets' }).click();
    if (!(await this.pacer.take(this.session, this.deadline))) throw new Error(RUN_ENDED);
    const answer = this.cartAnswer();
    const request = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/cart',
    );
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await this.answerSkillIfAsked(request);
    await request;
    const started = Date.now();
    const res = await answer;
    if (res.status() !== 201) throw new Error(`a Lucky Dip answered ${res.status()}`);
    await page.waitForURL(/\/cart$/);
    await page.getByRole('button', { name: 'Proceed to Checkout' }).waitFor();
    this.recorder.step('hold', started);
    const numbers = await this.newlyHeld(res);
    this.recorder.action('hold', numbers, started);
    return numbers;
  }

  private async pay(): Promise<void> {
    const page = this.page;
    const { recorder } = this.setup;
    let clicked = Date.now();
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    const dialog = page.getByTestId('checkout-dialog');
    await dialog.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();
    recorder.step('checkout', clicked);
    await dialog.getByLabel('Card number').fill(this.setup.cardNumber);
    await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabel('CVC').fill('123');
    clicked = Date.now();
    await dialog.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    recorder.step('pay', clicked);
    const orderId = /\/confirmation\/(\d+)/.exec(page.url())?.[1];
    const order = await this.get(`/api/orders/${orderId}`);
    if (order.status !== 200) throw new Error(`the confirmed order ${orderId} answered ${order.status}`);
    const numbers = (order.body as OrderView).items
      .filter((i) => i.competitionId === this.setup.competitionId)
      .flatMap((i) => i.numbers);
    for (const n of numbers) this.paid.add(n);
    this.held.clear();
    recorder.action('purchase', numbers, clicked);
  }

  private async buy(): Promise<void> {
    await this.openCompetition();
    if (this.journey === 'hot') await this.holdHot();
    else await this.holdLuckyDip();
    await this.pay();
  }

  /** Holds a Lucky Dip, then leaves the cart alone until the hold expires (or the run ends). */
  private async abandon(): Promise<void> {
    await this.openCompetition();
    const numbers = await this.holdLuckyDip();
    const cart = await this.get('/api/cart');
    const expiresAt = Math.max(
      ...(cart.body as Array<{ expiresAt: string }>).map((i) => Date.parse(i.expiresAt)),
    );
    await this.page.goto(`${this.setup.base}/competition/${this.setup.competitionId}`);
    const wait = expiresAt - Date.now();
    if (Date.now() + wait >= this.deadline) {
      await sleep(Math.max(0, this.deadline - Date.now()));
      return;
    }
    await sleep(wait + 500);
    // The sweeper releases the expired hold: measured from the moment it expired.
    this.recorder.action('release', numbers, expiresAt);
    for (const n of numbers) this.held.delete(n);
  }
}
