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
