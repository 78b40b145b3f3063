// Sign-up happens before the clock starts: one password hash per account is the slow part here.

/** Signs customers up, `concurrency` at a time; the ones that made it. */
export async function signUpAll<C extends { signUp(): Promise<boolean> }>(
  customers: C[],
  concurrency: number,
) {
  const ready: C[] = [];
  let next = 0;
  const worker = async () => {
    while (next < customers.length) {
      const customer = customers[next++]!;
      if (await customer.signUp()) ready.push(customer);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, customers.length) }, worker));
  return ready;
}

/** POST /api/register's body for a generated test account (`@example.co.uk`, every box ticked). */
export const registration = (label: string, password: string, firstName: string) => ({
  username: label,
  email: `${label}@example.co.uk`,
  password,
  firstName,
  lastName: 'Tester',
  phoneNumber: '07700 900123',
  dateOfBirth: '1990-04-01',
  ageConfirmation: true,
  ukResidency: true,
  termsAgreement: true,
});
