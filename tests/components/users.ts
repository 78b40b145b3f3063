import type { PublicUser } from '../../contract/auth';

/** A signed-in customer as GET /api/user answers; override what a test is about. */
export const publicUser = (overrides: Partial<PublicUser> = {}): PublicUser => ({
  id: 7,
  username: 'pat',
  email: 'pat@example.co.uk',
  firstName: 'Pat',
  lastName: null,
  phoneNumber: '07700900123',
  role: 'user',
  siteCredit: 0,
  marketingEmails: false,
  emailVerified: true,
  dateOfBirth: '1990-04-01',
  ageVerifiedAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
  deliveryAddress: null,
  ...overrides,
});
