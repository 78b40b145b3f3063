import { Field, type FieldBinding } from '../ui/Form';

/** A new password and its confirmation, as the reset page and the Security tab ask for them. */
export function NewPasswordFields({
  ids,
  password,
  confirmation,
}: {
  ids: { password: string; confirmation: string };
  password: FieldBinding;
  confirmation: FieldBinding;
}) {
  return (
    <>
      <Field
        id={ids.password}
        label="New password"
        type="password"
        autoComplete="new-password"
        {...password}
      />
      <Field
        id={ids.confirmation}
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        {...confirmation}
      />
    </>
  );
}
