import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, errorDetails } from '../../web/api/client';

const answer = (status: number, text: string) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(text, { status })),
  );

const failure = (path = '/api/x') =>
  apiGet(path).then(
    () => expect.unreachable('the request should fail'),
    (err: unknown) => err as ApiError,
  );

describe('ApiError', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("carries the body's code and details", async () => {
    const body = { message: 'Sorry, taken.', code: 'number_taken', details: { taken: [4, 9] } };
    answer(409, JSON.stringify(body));
    const err = await failure();
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'number_taken', serverMessage: 'Sorry, taken.' });
    expect(errorDetails(err, v.object({ taken: v.array(v.number()) }))).toEqual({ taken: [4, 9] });
    // The spec's text for the error itself is unchanged.
    expect(err.message).toBe(`409: ${JSON.stringify(body)}`);
  });

  it("counts a body that is not the API's error shape as internal_error", async () => {
    answer(502, '<html>Bad gateway</html>');
    expect(await failure()).toMatchObject({ status: 502, code: 'internal_error', serverMessage: undefined });
    answer(500, JSON.stringify({ message: 'Odd' }));
    expect(await failure()).toMatchObject({
      code: 'internal_error',
      serverMessage: 'Odd',
      details: undefined,
    });
    answer(409, JSON.stringify({ message: 'New', code: 'not_a_known_code' }));
    expect(await failure()).toMatchObject({ code: 'internal_error', serverMessage: 'New' });
  });

  it('reads no details of the wrong shape', async () => {
    answer(409, JSON.stringify({ message: 'Sorry', code: 'number_taken', details: { taken: 'some' } }));
    expect(errorDetails(await failure(), v.object({ taken: v.array(v.number()) }))).toBeUndefined();
    expect(errorDetails(new Error('offline'), v.object({}))).toBeUndefined();
  });
});
