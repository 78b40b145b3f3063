import { useEffect, useState } from 'react';
import type * as v from 'valibot';
import { useSearch } from 'wouter';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';
import { fieldBinder } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

type TokenPasswordSchema = v.GenericSchema<unknown, { token: string; password: string }>;

/**
 * A page reached from an e-mailed one-time link (`?token=…`) that asks for a new password twice:
 * the reset link and the "this wasn't me" link. `send` posts the token and the password and
 * answers the message to show; every session of the account has ended by then, so the signed-in
 * state is read again.
 */
export function useTokenPasswordForm(
  title: string,
  schema: TokenPasswordSchema,
  invalidLinkMessage: string,
  send: (input: { token: string; password: string }) => Promise<{ message: string }>,
) {
  const siteName = useSiteName();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [done, setDone] = useState<string>();
  useEffect(() => {
    document.title = `${title} | ${siteName}`;
  }, [title, siteName]);
  const form = useValidatedSubmit(
    schema,
    { token, ...values },
    async ({ token: t, password }) => {
      const answer = await send({ token: t, password });
      await useAuth.getState().refresh();
      setDone(answer.message);
    },
    invalidLinkMessage,
  );
  return { ...form, token, done, field: fieldBinder(values, setValues, form.errors) };
}
