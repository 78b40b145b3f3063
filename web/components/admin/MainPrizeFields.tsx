import { MAX_MAIN_PRIZES, ordinal } from '../../../contract/prizes';
import { Button } from '../ui/Button';
import { Control, Muted } from './AdminUi';
import { emptyPrizeRow, type PrizeFormRow } from './competitionForm';
import { PrizePictureField } from './PrizePictureField';

/**
 * The competition's main prizes in the admin form, 1st first, each with its value, cash
 * alternative and picture as the competition page shows them: drawn in this order, one winning
 * number each (docs/draws.md "Several prizes"). None listed: one prize, the competition's title.
 */
export function MainPrizeFields({
  prizes,
  errors,
  onChange,
}: {
  prizes: PrizeFormRow[];
  /** Keyed 'prizes.<index>.<field>' (formFieldOf). */
  errors: Record<string, string>;
  onChange: (prizes: PrizeFormRow[]) => void;
}) {
  const edit = (
    index: number,
    field: 'title' | 'description' | 'cashValue' | 'cashAlternative',
    value: string,
  ) => onChange(prizes.map((p, i) => (i === index ? { ...p, [field]: value } : p)));
  const error = (index: number, field: string) => errors[`prizes.${index}.${field}`];
  /** A pounds field of one prize, sent as pence (its errors come back under the pence key). */
  const money = (i: number, field: 'cashValue' | 'cashAlternative', errorKey: string, label: string) => {
    const id = `c-prize-${field === 'cashValue' ? 'value' : 'cash'}-${i + 1}`;
    return (
      <Control>
        <label htmlFor={id}>
          {ordinal(i + 1)} prize: {label} (£, optional)
        </label>
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          value={prizes[i]![field]}
          aria-invalid={error(i, errorKey) ? true : undefined}
          onChange={(e) => edit(i, field, e.target.value)}
        />
        {error(i, errorKey) && <small>{error(i, errorKey)}</small>}
      </Control>
    );
  };
  return (
    <fieldset data-testid="main-prizes">
      <legend>Main prizes</legend>
      {prizes.length === 0 && <Muted>One prize: the competition's title.</Muted>}
      {errors.prizes && <small role="alert">{errors.prizes}</small>}
      {prizes.map((p, i) => {
        const name = `${ordinal(i + 1)} prize`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the prizes have no identity of their own while edited
          <fieldset key={i} aria-label={name}>
            <Control>
              <label htmlFor={`c-prize-title-${i + 1}`}>{name}: title</label>
              <input
                id={`c-prize-title-${i + 1}`}
                value={p.title}
                aria-invalid={error(i, 'title') ? true : undefined}
                onChange={(e) => edit(i, 'title', e.target.value)}
              />
              {error(i, 'title') && <small>{error(i, 'title')}</small>}
            </Control>
            <Control>
              <label htmlFor={`c-prize-description-${i + 1}`}>{name}: description (optional)</label>
              <input
                id={`c-prize-description-${i + 1}`}
                value={p.description}
                onChange={(e) => edit(i, 'description', e.target.value)}
              />
              {error(i, 'description') && <small>{error(i, 'description')}</small>}
            </Control>
            {money(i, 'cashValue', 'cashValuePence', 'value')}
            {money(i, 'cashAlternative', 'cashAlternativePence', 'cash alternative')}
            <PrizePictureField
              id={`c-prize-image-${i + 1}`}
              name={name}
              image={p.image}
              error={error(i, 'image')}
              onChange={(image) => onChange(prizes.map((q, j) => (j === i ? { ...q, image } : q)))}
            />
            <div>
              <Button
                type="button"
                $variant="ghost"
                onClick={() => onChange(prizes.filter((_, j) => j !== i))}
              >
                Remove the {name}
              </Button>
            </div>
          </fieldset>
        );
      })}
      {prizes.length < MAX_MAIN_PRIZES && (
        <div>
          <Button type="button" $variant="secondary" onClick={() => onChange([...prizes, emptyPrizeRow()])}>
            Add a prize
          </Button>
        </div>
      )}
    </fieldset>
  );
}
