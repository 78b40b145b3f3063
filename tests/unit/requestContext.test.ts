import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  clientRequestIdFrom,
  loggerWithRequestIds,
  newRequestContext,
  withRequestContext,
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
    await withRequestContext({ requestId: 'req-1' }, async () => {
      await Promise.resolve();
      logger.info({ orderId: 7 }, 'inside, after an await');
    });
    await withRequestContext({ requestId: 'req-2', clientRequestId: 'proxy-7' }, async () => {
      logger.info('with the client id');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ reqId: 'req-1', orderId: 7, msg: 'inside, after an await' });
    expect(lines[0]).not.toHaveProperty('clientReqId');
    expect(lines[1]).toMatchObject({ reqId: 'req-2', clientReqId: 'proxy-7' });
    expect(lines[2]).not.toHaveProperty('reqId');
  });

  it("keeps a sane incoming id as the client's only, and always makes its own", () => {
    expect(clientRequestIdFrom('0af7651916cd43dd8448eb211c80319c')).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(clientRequestIdFrom('a b')).toBeUndefined();
    expect(clientRequestIdFrom('x'.repeat(129))).toBeUndefined();
    const context = newRequestContext('proxy-abc');
    expect(context).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientRequestId: 'proxy-abc',
    });
    expect(newRequestContext('proxy-abc').requestId).not.toBe(context.requestId);
  });
});
