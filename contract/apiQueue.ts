import { AdminIdParamSchema } from './admin';
import { route } from './apiRoute';
import { IdParamSchema } from './competitions';
import {
  type AdminQueueView,
  AdmitRateSchema,
  type QueueOrderView,
  type QueuePlaceView,
} from './launchQueue';

/** A queued launch's queue (docs/draws.md#launch-queue). */
export const QUEUE_ROUTES = {
  /** Join (or read again) this visitor's place: one per account or guest session. */
  joinQueue: route<QueuePlaceView>()({
    method: 'POST',
    path: '/api/competitions/:id/queue',
    params: IdParamSchema,
  }),
  /** After the shuffle: the revealed seed and every position, for anyone to check. */
  queueOrder: route<QueueOrderView>()({
    method: 'GET',
    path: '/api/competitions/:id/queue/order',
    params: IdParamSchema,
  }),
};

/** The back office's view of a running queue. */
export const ADMIN_QUEUE_ROUTES = {
  adminQueue: route<AdminQueueView>()({
    method: 'GET',
    path: '/api/admin/competitions/:id/queue',
    params: AdminIdParamSchema,
  }),
  /** Raise (or lower) the admission rate live; audited. */
  setAdmitRate: route<AdminQueueView>()({
    method: 'PUT',
    path: '/api/admin/competitions/:id/queue',
    params: AdminIdParamSchema,
    body: AdmitRateSchema,
  }),
};
