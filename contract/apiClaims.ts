import { route } from './apiRoute';
import type { PublicUser } from './auth';
import type { ClaimView } from './claims';
import {
  ClaimIdParamSchema,
  ClaimLinkQuerySchema,
  ClaimLinkSubmitSchema,
  ClaimSubmitSchema,
  DeliveryAddressSchema,
} from './claims';

/** The customer's delivery address and their prize claims (docs/draws.md#7-claiming-a-prize). */
export const CLAIM_ROUTES = {
  deliveryAddress: route<PublicUser>()({
    method: 'PUT',
    path: '/api/user/delivery-address',
    body: DeliveryAddressSchema,
  }),
  myClaims: route<ClaimView[]>()({ method: 'GET', path: '/api/claims' }),
  claim: route<ClaimView>()({ method: 'GET', path: '/api/claims/:id', params: ClaimIdParamSchema }),
  submitClaim: route<ClaimView>()({
    method: 'POST',
    path: '/api/claims/:id',
    params: ClaimIdParamSchema,
    body: ClaimSubmitSchema,
  }),
  /** A postal winner (no account) opens and answers their claim with the e-mailed link's token. */
  claimByLink: route<ClaimView>()({
    method: 'GET',
    path: '/api/claims/:id/link',
    params: ClaimIdParamSchema,
    query: ClaimLinkQuerySchema,
  }),
  submitClaimByLink: route<ClaimView>()({
    method: 'POST',
    path: '/api/claims/:id/link',
    params: ClaimIdParamSchema,
    body: ClaimLinkSubmitSchema,
  }),
};
