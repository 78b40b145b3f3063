import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/** The request being served, for whatever runs inside it (its log lines above all). */
interface RequestContext {
  /** Always this server's own: a client cannot choose it, so it can be trusted to find one request. */
  requestId: string;
  /** The id a client or proxy sent, when sane: kept to match its logs, never used as ours. */
  clientRequestId?: string | undefined;
}

const current = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'X-Request-Id';

// What a proxy's id may look like (a UUID, a hex trace id, `host:1234-5`): anything else, too long
// or with characters that could forge a log field or header, is replaced by our own.
const SANE_ID = /^[\w.:@+/=-]{1,128}$/;

/** The incoming id when it is sane, else undefined. */
export const clientRequestIdFrom = (incoming: string | undefined): string | undefined =>
  incoming && SANE_ID.test(incoming) ? incoming : undefined;

/** A request's context: a new id of this server's, and the client's own id when it sent a sane one. */
export const newRequestContext = (incoming: string | undefined): RequestContext => ({
  requestId: randomUUID(),
  clientRequestId: clientRequestIdFrom(incoming),
});

/** Runs `fn` (a request's middleware chain) inside the request's context. */
export const withRequestContext = <T>(context: RequestContext, fn: () => T): T => current.run(context, fn);

export const currentRequestId = (): string | undefined => current.getStore()?.requestId;

/**
 * A logger whose every line written while a request is served carries `reqId` (and the client's
 * `clientReqId`, when it sent one), whichever module logs it (routes and services hold the app's
 * one logger, not a per-request child).
 */
export const loggerWithRequestIds = (logger: Logger): Logger =>
  logger.child(
    {},
    {
      formatters: {
        log: (fields) => {
          const context = current.getStore();
          if (!context) return fields;
          const { requestId: reqId, clientRequestId: clientReqId } = context;
          return clientReqId ? { reqId, clientReqId, ...fields } : { reqId, ...fields };
        },
      },
    },
  );
