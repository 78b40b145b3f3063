import { useState } from 'react';
import { INSTANT_WINS_LOCKED, MAX_INSTANT_WINS } from '../../../contract/instantWins';
import { Button } from '../ui/Button';
import { Control, Muted } from './AdminUi';
import { emptyInstantWinRow, type InstantWinFormRow } from './instantWinForm';

type EditInstantWin = <K extends keyof InstantWinFormRow>(field: K, value: InstantWinFormRow[K]) => void;

const money = { type: 'number', inputMode: 'decimal', min: '0.01', step: '0.01' };

/** One instant win: title, kind, its amount or prize, and how its winning numbers are chosen. */
function InstantWinRow({
  row,
  index: i,
  errors,
  onEdit,
  onRemove,
}: {
  row: InstantWinFormRow;
  index: number;
  errors: Record<string, string>;
  onEdit: EditInstantWin;
  onRemove: () => void;
}) {
  const name = `Instant win ${i + 1}`;
  const field = (key: keyof InstantWinFormRow, label: string, input: object = {}) => {
    const id = `c-iw-${key}-${i + 1}`;
    const errorKey = key === 'amount' ? 'amountPence' : key === 'cashValue' ? 'cashValuePence' : key;
    const message = errors[`instantWins.${i}.${errorKey}`];
    return (
      <Control>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={String(row[key] ?? '')}
          aria-invalid={message ? true : undefined}
          onChange={(e) => onEdit(key, e.target.value)}
          {...input}
        />
        {message && <small>{message}</small>}
      </Control>
    );
  };
  return (
    <fieldset aria-label={name}>
      {errors[`instantWins.${i}`] && <small role="alert">{errors[`instantWins.${i}`]}</small>}
      {field('title', `${name}: title`)}
      <Control>
        <label htmlFor={`c-iw-kind-${i + 1}`}>{name}: kind</label>
        <select
          id={`c-iw-kind-${i + 1}`}
          value={row.kind}
          onChange={(e) => onEdit('kind', e.target.value as InstantWinFormRow['kind'])}
        >
          <option value="credit">Site credit</option>
          <option value="prize">Prize</option>
        </select>
      </Control>
      {row.kind === 'credit' ? (
        field('amount', `${name}: credit amount (£)`, money)
      ) : (
        <>
          {field('description', `${name}: description (optional)`)}
          {field('cashValue', `${name}: cash value (£)`, money)}
        </>
      )}
      <Control>
        <label htmlFor={`c-iw-pick-${i + 1}`}>{name}: winning numbers</label>
        <select
          id={`c-iw-pick-${i + 1}`}
          value={row.pick}
          onChange={(e) => onEdit('pick', e.target.value as InstantWinFormRow['pick'])}
        >
          <option value="count">Random numbers, picked when saved</option>
          <option value="numbers">Numbers I choose</option>
        </select>
      </Control>
      {row.pick === 'count'
        ? field('count', `${name}: how many numbers`, {
            type: 'number',
            inputMode: 'numeric',
            min: '1',
            max: String(MAX_INSTANT_WINS),
            step: '1',
          })
        : field('numbers', `${name}: ticket numbers (comma separated)`, {
            inputMode: 'numeric',
            placeholder: 'e.g. 7, 42, 99',
          })}
      <div>
        <Button type="button" $variant="ghost" onClick={onRemove}>
          Remove {name.toLowerCase()}
        </Button>
      </div>
    </fieldset>
  );
}

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
  loadCurrent,
}: {
  /** null: editing, the current list kept. */
  rows: InstantWinFormRow[] | null;
  /** Tickets were sold already: the list can no longer change. */
  locked: boolean;
  /** Keyed 'instantWins', 'instantWins.<index>' or 'instantWins.<index>.<field>' (formFieldOf). */
  errors: Record<string, string>;
  onChange: (rows: InstantWinFormRow[] | null) => void;
  /** Editing: the current list as lines, which 'Replace the instant wins' starts from. */
  loadCurrent?: () => Promise<InstantWinFormRow[]>;
}) {
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string>();
  const replace = async () => {
    if (!loadCurrent) return onChange([]);
    setLoading(true);
    setLoadError(undefined);
    try {
      onChange(await loadCurrent());
    } catch {
      setLoadError("The current instant wins couldn't be loaded. Try again.");
    } finally {
      setLoading(false);
    }
  };
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
              The current instant wins stay as they are (see the competition's page). Replacing them starts
              from the current list and sets a new one, possible only until the first ticket is held or sold.
            </Muted>
            <div>
              <Button type="button" $variant="secondary" disabled={loading} onClick={() => void replace()}>
                Replace the instant wins
              </Button>
            </div>
            {loadError && <small role="alert">{loadError}</small>}
          </>
        )
      ) : (
        <>
          {rows.length === 0 && <Muted>No instant wins.</Muted>}
          {rows.map((row, i) => (
            <InstantWinRow
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines have no identity of their own while edited
              key={i}
              row={row}
              index={i}
              errors={errors}
              onEdit={(field, value) =>
                onChange(rows.map((r, j) => (j === i ? { ...r, [field]: value } : r)))
              }
              onRemove={() => onChange(rows.filter((_, j) => j !== i))}
            />
          ))}
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
