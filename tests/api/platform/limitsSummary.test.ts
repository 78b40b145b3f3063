import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitsSummarySchema } from '../../../contract/site';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// The swarm (tools/swarm) reads this to keep within the limits or name the setting to relax.
describe.skipIf(engineUnavailable())(`GET /api/limits on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      REGISTRATIONS_PER_ADDRESS: '7',
      REGISTRATION_WINDOW_SECONDS: '600',
      HOLD_RATE_PER_SESSION: '11',
      HOLD_RATE_PER_ADDRESS: '44',
      RESERVATION_TTL_SECONDS: '90',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('tells any visitor the configured registration and hold limits, in the contract shape', async () => {
    const res = await new TestClient(server.url).get('/api/limits');
    expect(res.status).toBe(200);
    expect(v.is(LimitsSummarySchema, res.body)).toBe(true);
    expect(res.body).toEqual({
      requestLimits: true,
      registrationsPerAddress: { count: 7, windowSeconds: 600 },
      holdsPerMinute: { perSession: 11, perAddress: 44 },
      reservationSeconds: 90,
    });
  });

  it('says when the request limits are off', async () => {
    const off = await startTestServer({ RATE_LIMITS: 'off' });
    try {
      const res = await new TestClient(off.url).get('/api/limits');
      expect(res.body.requestLimits).toBe(false);
    } finally {
      await off.stop();
    }
  });
});
