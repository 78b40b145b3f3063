import { createClient } from 'redis';

/** The Redis the multi-process tests use (the Socket.IO adapter, shared rate limits). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers; outside CI a test without it is skipped loudly, in CI it fails. */
export async function redisAvailable(what: string): Promise<boolean> {
  const client = createClient({
    url: TEST_REDIS_URL,
    socket: { connectTimeout: 2000, reconnectStrategy: false },
  });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (err) {
    if (process.env.CI)
      throw new Error(`Redis is not reachable at ${TEST_REDIS_URL}; CI requires it (${String(err)})`);
    console.warn(`!! SKIPPING ${what}: cannot reach ${TEST_REDIS_URL}`);
    return false;
  } finally {
    await client.quit().catch(() => undefined);
  }
}
