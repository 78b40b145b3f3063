import { MAX_BUNDLES } from '../../../contract/bundles';
import { Button } from '../ui/Button';
import { Control, FieldRow, Muted } from './AdminUi';
import { type BundleFormRow, emptyBundleRow } from './competitionForm';

/**
 * The competition's multi-buy offers in the admin form, at most four: "5 tickets for £4.00"
 * (docs/product.md#multi-buy-pricing). Checked on save: each below its single tickets, a larger
 * one never dearer per ticket.
 */
export function BundleFields({
  bundles,
  error,
  onChange,
}: {
  bundles: BundleFormRow[];
  error: string | undefined;
  onChange: (bundles: BundleFormRow[]) => void;
}) {
  const edit = (index: number, field: keyof BundleFormRow, value: string) =>
    onChange(bundles.map((b, i) => (i === index ? { ...b, [field]: value } : b)));
  return (
    <fieldset data-testid="bundle-fields">
      <legend>Multi-buy offers</legend>
      {bundles.length === 0 && <Muted>No offers: every ticket at the ticket price.</Muted>}
      {error && <small role="alert">{error}</small>}
      {bundles.map((b, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows have no identity of their own while edited
        <FieldRow key={i}>
          <Control>
            <label htmlFor={`c-bundle-quantity-${i + 1}`}>Offer {i + 1}: tickets</label>
            <input
              id={`c-bundle-quantity-${i + 1}`}
              type="number"
              inputMode="numeric"
              min="2"
              step="1"
              value={b.quantity}
              aria-invalid={error ? true : undefined}
              onChange={(e) => edit(i, 'quantity', e.target.value)}
            />
          </Control>
          <Control>
            <label htmlFor={`c-bundle-price-${i + 1}`}>Offer {i + 1}: price (£)</label>
            <input
              id={`c-bundle-price-${i + 1}`}
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              value={b.price}
              aria-invalid={error ? true : undefined}
              onChange={(e) => edit(i, 'price', e.target.value)}
            />
          </Control>
          <div>
            <Button
              type="button"
              $variant="ghost"
              onClick={() => onChange(bundles.filter((_, j) => j !== i))}
            >
              Remove offer {i + 1}
            </Button>
          </div>
        </FieldRow>
      ))}
      {bundles.length < MAX_BUNDLES && (
        <div>
          <Button type="button" $variant="secondary" onClick={() => onChange([...bundles, emptyBundleRow()])}>
            Add an offer
          </Button>
        </div>
      )}
    </fieldset>
  );
}
