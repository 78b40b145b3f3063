import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORY_NEEDS_CONSENT } from '../../contract/winnerStories';
import { WinnerStoryForm } from '../../web/components/admin/WinnerStoryForm';
import { theme } from '../../web/theme/theme';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// The admin winner panel's story form (docs/product.md#public-names-and-winner-stories): photo,
// quote and the "winner agreed to publicity" tick; nothing is sent without the tick.

const STORY_PATH = '/api/admin/winners/7/prizes/2/story';

describe('the winner story form', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('refuses a quote without the publicity tick before sending anything', () => {
    const fetchMock = stubApi(() => undefined);
    renderWithTheme(
      <WinnerStoryForm
        competitionId={7}
        prize={{ position: 2, story: null }}
        label="2nd prize"
        onChanged={() => {}}
      />,
    );
    fireEvent.change(screen.getByLabelText("Winner's quote"), { target: { value: 'Over the moon!' } });
    expect(screen.getByText('14 / 280')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save story' }));
    expect(screen.getByRole('alert').textContent).toBe(STORY_NEEDS_CONSENT);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('uploads the photo, sends the story with the tick, and shows who ticked', async () => {
    const onChanged = vi.fn();
    const fetchMock = stubApi((method, path) => {
      if (method === 'POST' && path === '/api/admin/upload-image')
        return jsonResponse(201, { success: true, imageUrl: '/uploads/abc-4x3.png' });
      if (method === 'PUT' && path === STORY_PATH) return jsonResponse(200, {});
      return undefined;
    });
    const { rerender } = renderWithTheme(
      <WinnerStoryForm
        competitionId={7}
        prize={{ position: 2, story: null }}
        label="2nd prize"
        onChanged={onChanged}
      />,
    );
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'winner.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText("Winner's photo"), { target: { files: [file] } });
    await waitFor(() =>
      expect(screen.getByAltText("2nd prize: winner's photo").getAttribute('src')).toBe(
        '/uploads/abc-4x3.png',
      ),
    );
    fireEvent.change(screen.getByLabelText("Winner's quote"), { target: { value: '  Best day ever ' } });
    fireEvent.click(screen.getByLabelText('Winner agreed to publicity'));
    fireEvent.click(screen.getByRole('button', { name: 'Save story' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put?.[0]).toBe(STORY_PATH);
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      photo: '/uploads/abc-4x3.png',
      quote: 'Best day ever',
      consent: true,
    });

    // The panel reloads with the recorded tick.
    const story = {
      photo: '/uploads/abc-4x3.png',
      quote: 'Best day ever',
      consentAt: '2026-11-29T10:00:00.000Z',
      consentBy: 'admin',
    };
    rerender(
      <ThemeProvider theme={theme}>
        <WinnerStoryForm
          competitionId={7}
          prize={{ position: 2, story }}
          label="2nd prize"
          onChanged={onChanged}
        />
      </ThemeProvider>,
    );
    expect(screen.getByText(/^Ticked by admin on /)).toBeTruthy();
    expect((screen.getByLabelText('Winner agreed to publicity') as HTMLInputElement).checked).toBe(true);
  });
});
