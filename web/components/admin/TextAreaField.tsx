import type { TextareaHTMLAttributes } from 'react';
import styled from 'styled-components';

const Wrap = styled.div`
  display: grid;
  gap: 4px;
  label { font-weight: 600; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  textarea {
    padding: ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
    font: inherit;
  }
  textarea[aria-invalid='true'] { border-color: ${({ theme }) => theme.colors.danger}; }
  small { color: ${({ theme }) => theme.colors.danger}; }
`;

/** A labelled multi-line input (addresses keep their line breaks) with its own inline error. */
export function TextAreaField({
  id,
  label,
  error,
  ...textarea
}: { id: string; label: string; error?: string | undefined } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Wrap>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...textarea}
      />
      {error && <small id={`${id}-error`}>{error}</small>}
    </Wrap>
  );
}
