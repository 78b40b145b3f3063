import * as v from 'valibot';
import { ERROR_CODES } from '../../contract/errors';
import { HttpError } from '../platform/errors';

/**
 * Parses input with a contract schema. Failure is a 400 whose message is the first problem and
 * whose details.fields maps each field path to its message, so forms can show them inline.
 */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, withEveryKey(schema, input));
  if (result.success) return result.output;
  const fields: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = v.getDotPath(issue) ?? '_';
    fields[key] ??= issue.message;
  }
  const first = result.issues[0]?.message ?? 'Invalid input';
  throw new HttpError(400, ERROR_CODES.validation, first, { fields });
}

/**
 * valibot reports an absent key with a generic "Invalid key" message. Giving every key of an
 * object schema a value (undefined when absent) lets each field's own message apply instead,
 * e.g. 'Username is required' for a body without a username.
 */
function withEveryKey(schema: v.GenericSchema, input: unknown): unknown {
  const entries = (schema as { entries?: Record<string, unknown> }).entries;
  if (!entries || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const filled: Record<string, unknown> = {};
  for (const key of Object.keys(entries)) filled[key] = undefined;
  return { ...filled, ...input };
}
