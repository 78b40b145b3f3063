import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/** The request being served, for whatever runs inside it (its log lines above all). */
interface RequestContext {
  requestId: string;
}

const current = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'X-Request-Id';

// What a proxy's id may look like (a UUID, a hex trace id, `host:1234-5`): anything else, too long
// or with characters that could forge a log field or header, is replaced by our own.
const SANE_ID = /^[\w.:@+/=-]{1,128}$/;

/** The incoming id when it is sane, else a new random one. */
export const requestIdFrom = (incoming: string | undefined): string =>
  incoming && SANE_ID.test(incoming) ? incoming : randomUUID();

/** Runs `fn` (a request's middleware chain) with `requestId` as the current request's id. */
export const withRequestId = <T>(requestId: string, fn: () => T): T => current.run({ requestId }, fn);

export const currentRequestId = (): string | undefined => current.getStore()?.requestId;

/**
 * A logger whose every line written while a request is served carries `reqId`, whichever module
 * logs it (routes and services hold the app's one logger, not a per-request child).
 */
export const loggerWithRequestIds = (logger: Logger): Logger =>
  logger.child(
    {},
    {
      formatters: {
        log: (fields) => {
          const reqId = currentRequestId();
          return reqId ? { reqId, ...fields } : fields;
        },
      },
    },
  );
