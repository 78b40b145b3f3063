import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiSend } from '../../web/api/client';
import { DateOfBirthDialog } from '../../web/components/account/DateOfBirthDialog';
import { useAuth } from '../../web/stores/auth';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

// An account without a date of birth: a hold refused with date_of_birth_required opens the
// prompt, which checks the age before sending, saves once and updates the signed-in user.

const legacy = publicUser({ dateOfBirth: null });

describe('the date-of-birth prompt', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('opens on date_of_birth_required, refuses under 18, then saves the date', async () => {
    const sent: unknown[] = [];
    stubApi((method, path) => {
      if (method === 'POST' && path === '/api/cart')
        return jsonResponse(403, {
          message: 'Please give your date of birth before buying tickets.',
          code: 'date_of_birth_required',
        });
      if (method === 'PUT' && path === '/api/account/date-of-birth') {
        sent.push(true);
        return jsonResponse(200, { ...legacy, dateOfBirth: '1985-12-31' });
      }
      return undefined;
    });
    useAuth.getState().setUser(legacy);
    renderWithTheme(<DateOfBirthDialog />);
    expect(screen.queryByLabelText('Date of birth')).toBeNull();

    await expect(apiSend('POST', '/api/cart', { competitionId: 1, quantity: 1 })).rejects.toMatchObject({
      code: 'date_of_birth_required',
    });
    const field = await screen.findByLabelText('Date of birth');
    expect((field as HTMLInputElement).type).toBe('date');

    const year = new Date().getFullYear();
    fireEvent.change(field, { target: { value: `${year - 10}-01-01` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save date of birth' }));
    await screen.findByText('You must be 18 or over to enter.');
    expect(sent).toHaveLength(0);

    fireEvent.change(field, { target: { value: '1985-12-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save date of birth' }));
    await waitFor(() => expect(useAuth.getState().user?.dateOfBirth).toBe('1985-12-31'));
    expect(sent).toHaveLength(1);
    await waitFor(() => expect(screen.queryByLabelText('Date of birth')).toBeNull());
  });
});
