import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CLAIM_LINK_INVALID, type ClaimView } from '../../contract/claims';
import ClaimPage from '../../web/pages/account/ClaimPage';
import { useAuth } from '../../web/stores/auth';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

// The claim page's three states (docs/draws.md#7-claiming-a-prize): awaiting with the cash choice
// only where offered, claimed, and closed after the deadline with no choice; and a postal winner's
// claim opened with the e-mailed link, signed out, or refused when the link is not valid.

vi.mock('socket.io-client', () => import('./fakeSocket'));

const claim = (over: Partial<ClaimView> = {}): ClaimView => ({
  id: 5,
  kind: 'main',
  competitionId: 3,
  instantWinId: null,
  competitionTitle: 'Garden Hot Tub',
  prize: 'Garden Hot Tub',
  cashAlternative: 500,
  cashOnly: false,
  status: 'awaiting',
  choice: null,
  address: { line1: '1 High Street', line2: '', town: 'Bristol', postcode: 'BS1 4DJ' },
  phoneNumber: '07700 900789',
  claimedAt: null,
  deadline: '2026-12-12T17:00:00.000Z',
  ...over,
});

function show(view: ClaimView) {
  stubApi((method, path) =>
    method === 'GET' && path === '/api/claims/5' ? jsonResponse(200, view) : undefined,
  );
  useAuth.setState({ user: publicUser(), status: 'ready' });
  const { hook } = memoryLocation({ path: '/claims/5' });
  renderWithTheme(
    <Router hook={hook}>
      <Route path="/claims/:id" component={ClaimPage} />
    </Router>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuth.setState({ user: null, status: 'loading' });
});

describe('the claim page', () => {
  it('awaiting: the address from the profile, the prize or the cash alternative', async () => {
    show(claim());
    expect(await screen.findByLabelText('Postcode')).toHaveProperty('value', 'BS1 4DJ');
    expect(screen.getByTestId('claim-deadline').textContent).toContain('Claim by');
    expect(screen.getByLabelText(/The cash alternative: £500\.00/)).toBeDefined();
  });

  it('awaiting without a cash alternative: no choice to make', async () => {
    show(claim({ cashAlternative: null }));
    expect((await screen.findByTestId('no-cash-alternative')).textContent).toContain('no cash alternative');
    expect(screen.queryByLabelText(/The cash alternative/)).toBeNull();
  });

  it('claimed: what was chosen and where it goes', async () => {
    show(claim({ status: 'claimed', choice: 'cash', claimedAt: '2026-11-30T10:00:00.000Z' }));
    expect((await screen.findByTestId('claim-done')).textContent).toContain(
      'Claimed on 30 November 2026: you chose the cash alternative (£500.00).',
    );
  });

  it('after the deadline: the window has closed, and nothing can be chosen', async () => {
    show(claim({ status: 'expired' }));
    const closed = await screen.findByTestId('claim-closed');
    expect(closed.textContent).toContain('The claim window closed on 12 December 2026.');
    expect(closed.textContent).toContain('we decide case by case');
    expect(screen.queryByRole('button', { name: 'Claim prize' })).toBeNull();
    expect(screen.queryByLabelText('Postcode')).toBeNull();
  });
});

const TOKEN = 'k'.repeat(43);

/** /claims/5?token=…, signed out, the server answering `answer()` for that link (each read a new answer). */
function showLink(answer: () => Response) {
  const fetchMock = stubApi((method, path) => {
    if (method === 'GET' && path === `/api/claims/5/link?token=${TOKEN}`) return answer();
    if (method === 'POST' && path === '/api/claims/5/link')
      return jsonResponse(
        200,
        claim({ status: 'claimed', choice: 'prize', claimedAt: '2026-11-30T10:00:00.000Z' }),
      );
    return undefined;
  });
  useAuth.setState({ user: null, status: 'ready' });
  const { hook, searchHook } = memoryLocation({ path: `/claims/5?token=${TOKEN}` });
  renderWithTheme(
    <Router hook={hook} searchHook={searchHook}>
      <Route path="/claims/:id" component={ClaimPage} />
    </Router>,
  );
  return fetchMock;
}

describe("a postal winner's claim link", () => {
  it('opens the claim without signing in, from the postcard, and sends the answer with the token', async () => {
    const postcard = { line1: '3 Chapel Street', line2: '', town: 'Penzance', postcode: 'TR18 4AQ' };
    const fetchMock = showLink(() => jsonResponse(200, claim({ address: postcard, phoneNumber: null })));
    expect(await screen.findByLabelText('Postcode')).toHaveProperty('value', 'TR18 4AQ');
    expect(screen.queryByText('Authentication Required')).toBeNull();
    expect(screen.getByText(/We will e-mail you/)).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Change it in My Profile' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Claim prize' }));
    expect((await screen.findByTestId('claim-done')).textContent).toContain('you chose the prize');
    const post = fetchMock.mock.calls.find(
      ([path, init]) => path === '/api/claims/5/link' && init?.method === 'POST',
    );
    expect(JSON.parse(String(post![1]!.body))).toMatchObject({
      token: TOKEN,
      choice: 'prize',
      address: postcard,
    });
  });

  it('site credit won by post: paid as cash, the only choice, and the answer says so', async () => {
    const fetchMock = showLink(() =>
      jsonResponse(
        200,
        claim({ kind: 'instant', prize: 'Instant win: £5 credit', cashAlternative: 5, cashOnly: true }),
      ),
    );
    expect((await screen.findByTestId('cash-only')).textContent).toContain('paid to you as £5.00 in cash');
    expect(screen.queryByLabelText(/The prize:/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Claim prize' }));
    await screen.findByTestId('claim-done');
    const post = fetchMock.mock.calls.find(
      ([path, init]) => path === '/api/claims/5/link' && init?.method === 'POST',
    );
    expect(JSON.parse(String(post![1]!.body))).toMatchObject({ choice: 'cash' });
  });

  it('a link that is not valid: the page says so, and shows no claim', async () => {
    showLink(() => jsonResponse(403, { message: CLAIM_LINK_INVALID, code: 'forbidden' }));
    expect(await screen.findByRole('heading', { name: 'Claim not available' })).toBeDefined();
    await waitFor(() => expect(screen.getByText(CLAIM_LINK_INVALID)).toBeDefined());
    expect(screen.queryByLabelText('Postcode')).toBeNull();
  });
});
