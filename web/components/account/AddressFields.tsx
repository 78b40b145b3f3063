import type { DeliveryAddress } from '../../../contract/claims';
import { Field } from '../ui/Form';

export const EMPTY_ADDRESS: DeliveryAddress = { line1: '', line2: '', town: '', postcode: '' };

/** The delivery address's inputs (My Profile and the claim page), each with its own error. */
export function AddressFields({
  idPrefix,
  value,
  errors,
  onChange,
}: {
  idPrefix: string;
  value: DeliveryAddress;
  errors: Partial<Record<keyof DeliveryAddress, string>>;
  onChange: (next: DeliveryAddress) => void;
}) {
  const field = (key: keyof DeliveryAddress, label: string, autoComplete: string) => (
    <Field
      id={`${idPrefix}-${key}`}
      label={label}
      autoComplete={autoComplete}
      value={value[key]}
      error={errors[key]}
      onChange={(e) => onChange({ ...value, [key]: e.target.value })}
    />
  );
  return (
    <>
      {field('line1', 'Address line 1', 'address-line1')}
      {field('line2', 'Address line 2 (optional)', 'address-line2')}
      {field('town', 'Town or city', 'address-level2')}
      {field('postcode', 'Postcode', 'postal-code')}
    </>
  );
}
