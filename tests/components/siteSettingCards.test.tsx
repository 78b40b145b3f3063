import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteSettingsScreen } from '../../web/pages/admin/AdminSiteSettingsPage';
import { useToast } from '../../web/stores/toast';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// The settings cards of /admin/site-settings, built from contract/siteSettings.ts: each loads its
// setting, shows one labelled input per field and saves them with the body its PUT takes.

const SAVED: Record<string, unknown> = {
  '/api/admin/settings/ticket-cap': { defaultMaxTicketsPerUser: 25 },
  '/api/admin/settings/operator': {
    operatorName: null,
    operatorAddress: null,
    companyNumber: null,
    phone: null,
    email: null,
  },
  '/api/admin/settings/charities': {
    charities: [{ name: 'Example Hospice Trust', registrationNumber: '1234567' }],
  },
  '/api/admin/settings/postal-address': { postalAddress: 'PO Box 1\nTruro' },
  '/api/admin/settings/compliance': { complaintResponseDays: 14, ageCheckPrizeThreshold: 0 },
  '/api/admin/hero-image': { imageUrl: '/images/hero-default.svg', isDefault: true },
};

/** Serves the saved settings; a PUT answers `answer(path, body)` (the body echoed by default). */
function serve(answer: (path: string, body: unknown) => Response = (_path, body) => jsonResponse(200, body)) {
  const puts: { path: string; body: unknown }[] = [];
  const fetchMock = stubApi((method, path) => {
    if (method === 'GET' && path in SAVED) return jsonResponse(200, SAVED[path]);
    return undefined;
  });
  const handle = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input: string, init?: RequestInit) => {
    if (init?.method !== 'PUT') return handle(input, init);
    const body = JSON.parse(String(init.body));
    puts.push({ path: input, body });
    return answer(input, body);
  });
  return puts;
}

const card = (testId: string) => within(screen.getByTestId(testId));

/** The input once its card has loaded and shown the saved value. */
async function loaded(testId: string, label: string, value: string) {
  const input = () => card(testId).getByLabelText(label) as HTMLInputElement;
  await waitFor(() => expect([input().disabled, input().value]).toEqual([false, value]));
  return input();
}

describe('the site settings cards', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useToast.getState().dismiss();
  });

  it('shows each saved setting in its own card, pounds with their pence and unset text empty', async () => {
    serve();
    renderWithTheme(<SiteSettingsScreen direct={false} />);
    await loaded('ticket-cap-settings', 'Default limit per person', '25');
    await loaded('operator-settings', 'Operator name', '');
    await loaded('operator-settings', 'Operator address', '');
    await loaded('operator-settings', 'Company number', '');
    await loaded('operator-settings', 'Phone', '');
    await loaded('operator-settings', 'Email', '');
    await loaded('charities-settings', 'Charities', 'Example Hospice Trust, 1234567');
    await loaded('postal-address-settings', 'Postal entry address', 'PO Box 1\nTruro');
    await loaded('compliance-settings', 'Complaint response days', '14');
    await loaded('compliance-settings', 'Age check for prizes over (£)', '0.00');
    expect(card('ticket-cap-settings').getByRole('heading').textContent).toBe('Tickets per person');
    expect(card('postal-address-settings').getByLabelText('Postal entry address').id).toBe(
      'postalEntryAddress',
    );
  });

  it('saves a card with the body its PUT takes and toasts from the answer', async () => {
    const puts = serve();
    renderWithTheme(<SiteSettingsScreen direct={false} />);

    fireEvent.change(await loaded('compliance-settings', 'Complaint response days', '14'), {
      target: { value: '21' },
    });
    fireEvent.change(card('compliance-settings').getByLabelText('Age check for prizes over (£)'), {
      target: { value: '12.50' },
    });
    // Submitted directly: jsdom's step check counts any amount in pence as a mismatch (browsers do not).
    const save = card('compliance-settings').getByRole('button', { name: 'Save compliance settings' });
    fireEvent.submit(save.closest('form')!);
    await waitFor(() => expect(useToast.getState().current?.title).toBe('Compliance settings saved'));
    expect(puts).toEqual([
      {
        path: '/api/admin/settings/compliance',
        body: { complaintResponseDays: 21, ageCheckPrizeThreshold: 12.5 },
      },
    ]);

    fireEvent.change(await loaded('ticket-cap-settings', 'Default limit per person', '25'), {
      target: { value: '40' },
    });
    fireEvent.click(card('ticket-cap-settings').getByRole('button', { name: 'Save limit' }));
    await waitFor(() => expect(useToast.getState().current?.title).toBe('Limit saved'));
    expect(useToast.getState().current?.description).toBe(
      'Competitions without their own limit now allow 40 tickets per person.',
    );
    expect(puts[1]).toEqual({
      path: '/api/admin/settings/ticket-cap',
      body: { defaultMaxTicketsPerUser: 40 },
    });

    fireEvent.change(await loaded('operator-settings', 'Operator name', ''), {
      target: { value: 'WCP Ltd' },
    });
    fireEvent.change(card('operator-settings').getByLabelText('Operator address'), {
      target: { value: '1 Quay St\nTruro' },
    });
    fireEvent.change(card('operator-settings').getByLabelText('Company number'), {
      target: { value: 'SC123456' },
    });
    fireEvent.change(card('operator-settings').getByLabelText('Phone'), {
      target: { value: '01632 960001' },
    });
    fireEvent.change(card('operator-settings').getByLabelText('Email'), {
      target: { value: 'hello@example.com' },
    });
    fireEvent.click(card('operator-settings').getByRole('button', { name: 'Save operator details' }));
    await waitFor(() => expect(useToast.getState().current?.title).toBe('Operator details saved'));
    expect(puts[2]?.body).toEqual({
      operatorName: 'WCP Ltd',
      operatorAddress: '1 Quay St\nTruro',
      companyNumber: 'SC123456',
      phone: '01632 960001',
      email: 'hello@example.com',
    });

    // The charities: one a line, the name, a comma, the number; sent as the list the PUT takes.
    fireEvent.change(await loaded('charities-settings', 'Charities', 'Example Hospice Trust, 1234567'), {
      target: { value: 'Example Hospice Trust, 1234567\n\n  Sea Rescue, Cornwall, SC012345  ' },
    });
    fireEvent.click(card('charities-settings').getByRole('button', { name: 'Save charities' }));
    await waitFor(() => expect(useToast.getState().current?.title).toBe('Charities saved'));
    expect(useToast.getState().current?.description).toBe('The site names 2.');
    expect(puts[3]).toEqual({
      path: '/api/admin/settings/charities',
      body: {
        charities: [
          { name: 'Example Hospice Trust', registrationNumber: '1234567' },
          { name: 'Sea Rescue, Cornwall', registrationNumber: 'SC012345' },
        ],
      },
    });
  });

  it("shows the server's refusal in a failure toast", async () => {
    serve(() =>
      jsonResponse(400, { message: 'Postal entry address is required', code: 'validation_failed' }),
    );
    renderWithTheme(<SiteSettingsScreen direct={false} />);
    fireEvent.change(await loaded('postal-address-settings', 'Postal entry address', 'PO Box 1\nTruro'), {
      target: { value: ' ' },
    });
    fireEvent.click(
      card('postal-address-settings').getByRole('button', { name: 'Save postal entry address' }),
    );
    await waitFor(() =>
      expect(useToast.getState().current).toMatchObject({
        title: 'Could not save the postal entry address',
        description: 'Postal entry address is required',
        variant: 'destructive',
      }),
    );
  });
});
