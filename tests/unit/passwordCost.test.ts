import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordHashCost, verifyPassword } from '../../api/accounts/passwords';

describe('password hash cost', () => {
  afterEach(() => setPasswordHashCost('production'));

  it("writes OWASP's parameters by default and the cheap ones only when told", async () => {
    expect((await hashPassword('correct horse')).split('$').slice(0, 4)).toEqual([
      'scrypt',
      '32768',
      '8',
      '3',
    ]);
    setPasswordHashCost('test');
    const cheap = await hashPassword('correct horse');
    expect(cheap.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    // A hash carries its parameters, so it verifies whatever the current cost.
    setPasswordHashCost('production');
    expect(await verifyPassword('correct horse', cheap)).toBe(true);
    expect(await verifyPassword('wrong horse', cheap)).toBe(false);
  });
});
