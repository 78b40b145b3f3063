import * as v from 'valibot';

// Numbers in request bodies: JSON numbers from API clients, numeric strings from the admin's form
// fields (sent as typed, so the schema reports its own message for a bad one).

/** A number from JSON, or a numeric string from a form field. */
export const numeric = (message: string) =>
  v.pipe(
    v.union(
      [v.number(message), v.pipe(v.string(message), v.trim(), v.regex(/^-?\d+(\.\d+)?$/, message))],
      message,
    ),
    v.transform(Number),
    v.finite(message),
  );

/** A whole number, from JSON or a form field. */
export const wholeNumber = (message: string) => v.pipe(numeric(message), v.integer(message));
