import { INSTANT_WINS_LOCKED, MAX_INSTANT_WINS } from '../../../contract/instantWins';
import { Button } from '../ui/Button';
import { Control, Muted } from './AdminUi';
import { emptyInstantWinRow, type InstantWinFormRow } from './instantWinForm';

/**
 * The competition's instant wins in the admin form (docs/draws.md#instant-wins): each a site
 * credit or a prize, on a count of random numbers or on numbers typed. When editing, the list is
 * kept unless the admin chooses to replace it, since any change is refused after the first hold.
 */
export function InstantWinFields({
  rows,
  locked,
  errors,
  onChange,
}: {
  /** null: editing, the current list kept. */
  rows: InstantWinFormRow[] | null;
  /** Tickets were sold already: the list can no longer change. */
  locked: boolean;
  /** Keyed 'instantWins', 'instantWins.<index>' or 'instantWins.<index>.<field>' (formFieldOf). */
  errors: Record<string, string>;
  onChange: (rows: InstantWinFormRow[] | null) => void;
}) {
  const edit = <K extends keyof InstantWinFormRow>(index: number, field: K, value: InstantWinFormRow[K]) =>
    onChange((rows ?? []).map((r, i) => (i === index ? { ...r, [field]: value } : r)));
  const error = (index: number, field: string) => errors[`instantWins.${index}.${field}`];
  const field = (index: number, name: keyof InstantWinFormRow, label: string, input: object = {}) => {
    const id = `c-iw-${name}-${index + 1}`;
    const message = error(
      index,
      name === 'amount' ? 'amountPence' : name === 'cashValue' ? 'cashValuePence' : name,
    );
    return (
      <Control>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={String(rows?.[index]?.[name] ?? '')}
          aria-invalid={message ? true : undefined}
          onChange={(e) => edit(index, name, e.target.value)}
          {...input}
        />
        {message && <small>{message}</small>}
      </Control>
    );
  };
  const money = { type: 'number', inputMode: 'decimal', min: '0.01', step: '0.01' };
  return (
    <fieldset data-testid="instant-wins">
      <legend>Instant wins</legend>
      {errors.instantWins && <small role="alert">{errors.instantWins}</small>}
      {rows === null ? (
        locked ? (
          <Muted>{INSTANT_WINS_LOCKED}</Muted>
        ) : (
          <>
            <Muted>
              The current instant wins stay as they are (see the competition's page). Replacing them sets a
              new list, possible only until the first ticket is held or sold.
            </Muted>
            <div>
              <Button type="button" $variant="secondary" onClick={() => onChange([])}>
                Replace the instant wins
              </Button>
            </div>
          </>
        )
      ) : (
        <>
          {rows.length === 0 && <Muted>No instant wins.</Muted>}
          {rows.map((row, i) => {
            const name = `Instant win ${i + 1}`;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines have no identity of their own while edited
              <fieldset key={i} aria-label={name}>
                {errors[`instantWins.${i}`] && <small role="alert">{errors[`instantWins.${i}`]}</small>}
                {field(i, 'title', `${name}: title`)}
                <Control>
                  <label htmlFor={`c-iw-kind-${i + 1}`}>{name}: kind</label>
                  <select
                    id={`c-iw-kind-${i + 1}`}
                    value={row.kind}
                    onChange={(e) => edit(i, 'kind', e.target.value as InstantWinFormRow['kind'])}
                  >
                    <option value="credit">Site credit</option>
                    <option value="prize">Prize</option>
                  </select>
                </Control>
                {row.kind === 'credit' ? (
                  field(i, 'amount', `${name}: credit amount (£)`, money)
                ) : (
                  <>
                    {field(i, 'description', `${name}: description (optional)`)}
                    {field(i, 'cashValue', `${name}: cash value (£)`, money)}
                  </>
                )}
                <Control>
                  <label htmlFor={`c-iw-pick-${i + 1}`}>{name}: winning numbers</label>
                  <select
                    id={`c-iw-pick-${i + 1}`}
                    value={row.pick}
                    onChange={(e) => edit(i, 'pick', e.target.value as InstantWinFormRow['pick'])}
                  >
                    <option value="count">Random numbers, picked when saved</option>
                    <option value="numbers">Numbers I choose</option>
                  </select>
                </Control>
                {row.pick === 'count'
                  ? field(i, 'count', `${name}: how many numbers`, {
                      type: 'number',
                      inputMode: 'numeric',
                      min: '1',
                      max: String(MAX_INSTANT_WINS),
                      step: '1',
                    })
                  : field(i, 'numbers', `${name}: ticket numbers (comma separated)`, {
                      inputMode: 'numeric',
                      placeholder: 'e.g. 7, 42, 99',
                    })}
                <div>
                  <Button
                    type="button"
                    $variant="ghost"
                    onClick={() => onChange(rows.filter((_, j) => j !== i))}
                  >
                    Remove {name.toLowerCase()}
                  </Button>
                </div>
              </fieldset>
            );
          })}
          <div>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => onChange([...rows, emptyInstantWinRow()])}
            >
              Add an instant win
            </Button>
          </div>
        </>
      )}
    </fieldset>
  );
}
