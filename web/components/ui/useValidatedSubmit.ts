import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import { messageOf } from '../../api/client';
import { fieldErrors } from './Form';

/**
 * The submit logic every form here shares: check the values with a contract schema (field errors
 * inline, nothing sent), then run `send` with the parsed output; its error message goes in the
 * form's red box (`fallback` when the server sent none).
 */
export function useValidatedSubmit<S extends v.GenericSchema>(
  schema: S,
  values: unknown,
  send: (output: v.InferOutput<S>) => Promise<void>,
  fallback: string,
) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const result = v.safeParse(schema, values);
    if (!result.success) {
      setErrors(fieldErrors(result.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await send(result.output);
    } catch (err) {
      setFormError(messageOf(err, fallback));
    } finally {
      setBusy(false);
    }
  };

  return { submit, errors, formError, busy };
}
