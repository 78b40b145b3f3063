import type { ChangeEvent, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import styled from 'styled-components';

export const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
`;

const FieldWrap = styled.div`
  display: grid;
  gap: 4px;
  label { font-weight: 600; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  input {
    min-height: 44px;
    padding: 0 ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
  }
  input[aria-invalid='true'], textarea[aria-invalid='true'] { border-color: ${({ theme }) => theme.colors.danger}; }
  textarea {
    padding: ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
    font: inherit;
  }
  small { color: ${({ theme }) => theme.colors.danger}; }
`;

/** A labelled input with its own inline error. */
export function Field({
  id,
  label,
  error,
  ...input
}: { id: string; label: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldWrap>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error && <small id={`${id}-error`}>{error}</small>}
    </FieldWrap>
  );
}

/** A labelled multi-line input (an address keeps its line breaks) with its own inline error. */
export function TextAreaField({
  id,
  label,
  error,
  ...textarea
}: { id: string; label: string; error?: string | undefined } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldWrap>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...textarea}
      />
      {error && <small id={`${id}-error`}>{error}</small>}
    </FieldWrap>
  );
}

/**
 * Ties Fields to a form's string values: `{...field('email')}` gives the Field its value, its inline
 * error and the change handler that updates that one value.
 */
export function fieldBinder<T extends { [K in keyof T]: string }>(
  values: T,
  setValues: (next: T) => void,
  errors: Record<string, string>,
) {
  return (key: keyof T & string) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value }),
  });
}

export type FieldBinding = ReturnType<ReturnType<typeof fieldBinder>>;

const CheckWrap = styled.div`
  display: grid;
  gap: 2px;
  label { display: flex; gap: ${({ theme }) => theme.space.xs}; align-items: flex-start; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  input { width: 18px; height: 18px; margin-top: 2px; flex: 0 0 auto; }
  small { color: ${({ theme }) => theme.colors.danger}; }
  small.hint { color: ${({ theme }) => theme.colors.textMuted}; }
  input:disabled + span { color: ${({ theme }) => theme.colors.textMuted}; }
`;

export function Checkbox({
  id,
  children,
  error,
  checked,
  onChange,
  disabled,
  hint,
}: {
  id: string;
  children: ReactNode;
  error?: string | undefined;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Why it is disabled, or other help, under the label. */
  hint?: string | undefined;
}) {
  return (
    <CheckWrap>
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <span>{children}</span>
      </label>
      {hint && (
        <small className="hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
      {error && <small>{error}</small>}
    </CheckWrap>
  );
}

/** The red box for a form-level error (spec: errors show inline in a red box). */
export const ErrorBox = styled.div`
  border: 1px solid ${({ theme }) => theme.colors.danger};
  background: ${({ theme }) => theme.colors.dangerBg};
  color: ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  font-weight: 600;
`;

/** Field errors from a valibot result: first message per top-level field. */
export function fieldErrors(
  issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<{ key: unknown }> | undefined }>,
) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path?.[0]?.key ?? '_');
    errors[key] ??= issue.message;
  }
  return errors;
}
