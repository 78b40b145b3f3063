import { io } from 'socket.io-client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompetitionEntrySchema,
  HeroImageSchema,
  PublicCompetitionSchema,
} from '../../../contract/competitions';
import { ApiErrorSchema } from '../../../contract/errors';
import { ClockEventSchema } from '../../../contract/realtime';
import { HealthSchema, SiteConfigSchema } from '../../../contract/site';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

/** Fails with valibot's own explanation when a payload does not match its contract schema. */
function expectShape(schema: v.GenericSchema, value: unknown) {
  const result = v.safeParse(schema, value);
  expect(result.success ? [] : result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`)).toEqual([]);
}

// What the server sends matches the shared contract the client is typed against.
describe.skipIf(engineUnavailable())(`API responses match the contract on ${testEngine()}`, () => {
  let server: TestServer;
  let client: TestClient;
  let competitionId: number;
  beforeAll(async () => {
    server = await startTestServer();
    client = new TestClient(server.url);
    competitionId = await insertCompetition(server.database.db);
    await sellTickets(server.database.db, competitionId, await insertUser(server.database.db), [1, 2]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('competitions, entries, hero image, health and site config', async () => {
    const list = await client.get('/api/competitions');
    expect(list.body.length).toBeGreaterThan(0);
    for (const c of list.body) expectShape(PublicCompetitionSchema, c);
    expectShape(PublicCompetitionSchema, (await client.get(`/api/competitions/${competitionId}`)).body);
    const entries = await client.get(`/api/competitions/${competitionId}/entries`);
    expect(entries.body.length).toBe(1);
    for (const e of entries.body) expectShape(CompetitionEntrySchema, e);
    expectShape(HeroImageSchema, (await client.get('/api/admin/hero-image')).body);
    expectShape(HealthSchema, (await client.get('/api/health')).body);
    expectShape(SiteConfigSchema, (await client.get('/api/site-config')).body);
  });

  it('errors', async () => {
    for (const path of ['/api/nope', '/api/competitions/abc', '/api/competitions/999999', '/api/user']) {
      expectShape(ApiErrorSchema, (await client.get(path)).body);
    }
  });

  it('the clock event', async () => {
    // Listen before connecting: the server sends clock as soon as the connection opens.
    const socket = io(server.url, { transports: ['websocket'], forceNew: true });
    try {
      const clock = await new Promise((resolve) => socket.once('clock', resolve));
      expectShape(ClockEventSchema, clock);
    } finally {
      socket.disconnect();
    }
  });
});
