import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  loggerWithRequestIds,
  requestIdFrom,
  withRequestId,
} from '../../api/platform/observability/requestContext';

describe('request ids in log lines', () => {
  it('adds the current request id to every line logged inside a request, and none outside', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = loggerWithRequestIds(pino(sink));
    await withRequestId('req-1', async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.info({ orderId: 7 }, 'inside, after an await');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ reqId: 'req-1', orderId: 7, msg: 'inside, after an await' });
    expect(lines[1]).not.toHaveProperty('reqId');
  });

  it('keeps a sane incoming id and replaces anything else', () => {
    expect(requestIdFrom('0af7651916cd43dd8448eb211c80319c')).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(requestIdFrom('a b')).not.toBe('a b');
    expect(requestIdFrom('x'.repeat(129))).toHaveLength(36);
    expect(requestIdFrom(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
