import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicCompetition } from '../../contract/competitions';
import { ERROR_CODES } from '../../contract/errors';
import { PurchasePanel } from '../../web/components/purchase/PurchasePanel';
import { useToast } from '../../web/stores/toast';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// The question itself (its pool, attempts and 1.5 s pause) is the dialog's own business, proven in
// the browser specs; here it stands open until the visitor passes it.
vi.mock('../../web/components/purchase/SkillQuestionDialog', () => ({
  SkillQuestionDialog: ({ open, onPassed }: { open: boolean; onPassed: () => void }) =>
    open ? (
      <div data-testid="skill-dialog">
        <button type="button" onClick={onPassed}>
          Pass
        </button>
      </div>
    ) : null,
}));

const competition = {
  id: 4,
  title: 'Hot Tub',
  ticketPrice: 2.49,
  maxTicketsPerUser: 50,
} as PublicCompetition;

/** The cart refuses every add with this 403; counts the adds. */
function refuseAdds(code: string) {
  const fetchMock = stubApi((method, path) =>
    method === 'POST' && path === '/api/cart'
      ? jsonResponse(403, { message: `Refused: ${code}`, code })
      : undefined,
  );
  return () =>
    fetchMock.mock.calls.filter(([path, init]) => path === '/api/cart' && init?.method === 'POST').length;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useToast.getState().dismiss();
});

describe('PurchasePanel: the skill answer outlives refusals that are not about it', () => {
  it.each([ERROR_CODES.selfExcluded, ERROR_CODES.dateOfBirthRequired])(
    'a 403 %s keeps the skill question passed: Buy Now again goes straight to the cart',
    async (code) => {
      const adds = refuseAdds(code);
      renderWithTheme(<PurchasePanel competition={competition} live={undefined} />);

      fireEvent.click(screen.getByRole('button', { name: 'Buy Now' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Pass' }));
      await waitFor(() => expect(useToast.getState().current?.description).toBe(`Refused: ${code}`));
      expect(adds()).toBe(1);
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Buy Now' })).toHaveProperty('disabled', false),
      );

      fireEvent.click(screen.getByRole('button', { name: 'Buy Now' }));
      expect(screen.queryByTestId('skill-dialog')).toBeNull();
      await waitFor(() => expect(adds()).toBe(2));
    },
  );

  it('a 403 skill_required (the session forgot the answer) asks the question again', async () => {
    const adds = refuseAdds(ERROR_CODES.skillRequired);
    renderWithTheme(<PurchasePanel competition={competition} live={undefined} />);

    fireEvent.click(screen.getByRole('button', { name: 'Buy Now' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Pass' }));
    await waitFor(() =>
      expect(useToast.getState().current?.description).toBe(`Refused: ${ERROR_CODES.skillRequired}`),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Buy Now' })).toHaveProperty('disabled', false),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Buy Now' }));
    expect(await screen.findByTestId('skill-dialog')).toBeTruthy();
    expect(adds()).toBe(1);
  });

  it('a visitor who passed on an earlier visit (the session says so) is not asked again', async () => {
    const fetchMock = stubApi((method, path) => {
      if (method === 'GET' && path === `/api/competitions/${competition.id}/skill-question`)
        return jsonResponse(200, { questionId: 'q', question: '?', options: [], passed: true });
      if (method === 'POST' && path === '/api/cart')
        return jsonResponse(403, { message: 'Refused', code: 'x' });
      return undefined;
    });
    renderWithTheme(<PurchasePanel competition={competition} live={undefined} />);

    fireEvent.click(screen.getByRole('button', { name: 'Buy Now' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([p, init]) => p === '/api/cart' && init?.method === 'POST')).toBe(
        true,
      ),
    );
    expect(screen.queryByTestId('skill-dialog')).toBeNull();
  });
});

describe('PurchasePanel: a customer taking a break', () => {
  it('is told calmly until when, in London time, whatever the server said', async () => {
    stubApi((method, path) =>
      method === 'POST' && path === '/api/cart'
        ? jsonResponse(403, {
            message: 'Refused',
            code: ERROR_CODES.selfExcluded,
            details: { selfExcludedUntil: '2031-05-27T23:30:00.000Z' },
          })
        : undefined,
    );
    renderWithTheme(<PurchasePanel competition={competition} live={undefined} />);

    fireEvent.click(screen.getByRole('button', { name: 'Buy Now' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Pass' }));
    await waitFor(() =>
      expect(useToast.getState().current).toMatchObject({
        title: 'Taking a break',
        description: "You're taking a break until 28 May 2031. You can't enter until then.",
        variant: 'default',
      }),
    );
  });
});
