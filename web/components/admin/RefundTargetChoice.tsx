import type { RefundTarget } from '../../../contract/backOffice';

/** Where an admin's refund goes: back to the card that paid, or (for an account) as site credit. */
export function RefundTargetChoice({
  legend,
  name,
  value,
  onChange,
  allowCredit,
}: {
  legend: string;
  /** The radio group's name, unique on the page. */
  name: string;
  value: RefundTarget;
  onChange: (to: RefundTarget) => void;
  allowCredit: boolean;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <label>
        <input type="radio" name={name} checked={value === 'card'} onChange={() => onChange('card')} /> The
        card that paid
      </label>{' '}
      {allowCredit && (
        <label>
          <input type="radio" name={name} checked={value === 'credit'} onChange={() => onChange('credit')} />{' '}
          Site credit
        </label>
      )}
    </fieldset>
  );
}
