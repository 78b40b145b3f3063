import type { InputHTMLAttributes } from 'react';
import { ADMIN_CATEGORIES } from '../../../contract/admin';
import { londonToday } from '../../../contract/londonTime';
import { Control, FieldRow } from './AdminUi';
import type { CompetitionFormValues } from './competitionForm';

// The competition dialog's plain fields, row by row; the dialog keeps the values and saves them.

/** The change handler of the field for one value, as the dialog makes it. */
export type OnText = (key: keyof CompetitionFormValues) => (e: { target: { value: string } }) => void;

/** A labelled input with its hint, or its error in place of the hint. */
export function TextInput({
  id,
  label,
  error,
  hint,
  ...input
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
} & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Control>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        {...input}
      />
      {hint && !error && (
        <small className="hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
      {error && <small id={`${id}-error`}>{error}</small>}
    </Control>
  );
}

/** What every row of fields takes from the dialog. */
export interface RowProps {
  values: CompetitionFormValues;
  errors: Record<string, string>;
  onText: OnText;
}

type TextKey = {
  [K in keyof CompetitionFormValues]: CompetitionFormValues[K] extends string ? K : never;
}[keyof CompetitionFormValues];

/** A text field's value, change handler and error. */
export const bound = ({ values, errors, onText }: RowProps, key: TextKey) => ({
  value: values[key],
  onChange: onText(key),
  error: errors[key],
});

/** An amount in pounds and pence. */
const POUNDS = { type: 'number', inputMode: 'decimal', min: '0.01', step: '0.01' } as const;
/** A whole number from 1. */
const WHOLE = { type: 'number', inputMode: 'numeric', min: '1', step: '1' } as const;

/** Price, total tickets, the per-person cap and the cash alternative. */
export function NumbersRow(props: RowProps) {
  return (
    <FieldRow>
      <TextInput id="c-price" label="Ticket Price (£)" {...POUNDS} {...bound(props, 'ticketPrice')} />
      <TextInput id="c-total" label="Total Tickets" {...WHOLE} {...bound(props, 'totalTickets')} />
      <TextInput
        id="c-cap"
        label="Max tickets per person"
        {...WHOLE}
        placeholder="Site default"
        {...bound(props, 'maxTicketsPerUser')}
      />
      <TextInput
        id="c-cash"
        label="Cash alternative (£, optional)"
        {...POUNDS}
        placeholder="None"
        {...bound(props, 'cashAlternative')}
      />
    </FieldRow>
  );
}

/** The draw day and time, in UK time; the calendar offers no past day. */
export function DrawTimeRow(props: RowProps) {
  return (
    <FieldRow>
      <TextInput
        id="c-end-date"
        label="End Date"
        type="date"
        min={londonToday()}
        {...bound(props, 'endDate')}
      />
      <TextInput
        id="c-end-time"
        label="Draw time (UK)"
        type="time"
        value={props.values.endTime}
        onChange={props.onText('endTime')}
      />
    </FieldRow>
  );
}

/** A scheduled launch: the day and time it opens, in UK time; empty: open at once. */
export function OpeningRow(props: RowProps) {
  return (
    <FieldRow>
      <TextInput id="c-starts-date" label="Opens on (optional)" type="date" {...bound(props, 'startsDate')} />
      <TextInput
        id="c-starts-time"
        label="Opening time (UK)"
        type="time"
        value={props.values.startsTime}
        onChange={props.onText('startsTime')}
      />
    </FieldRow>
  );
}

/**
 * Minimum sales (docs/product.md#minimum-sales-and-cancellation): short of the minimum at the end
 * date, the end date moves on by so many days, up to so many times; then it is cancelled and refunded.
 */
export function MinimumSalesRow(props: RowProps) {
  return (
    <FieldRow>
      <TextInput
        id="c-min-sold"
        label="Minimum tickets sold (optional)"
        {...WHOLE}
        placeholder="No minimum"
        {...bound(props, 'minTicketsSold')}
      />
      <TextInput
        id="c-extend-days"
        label="If short, extend by (days)"
        {...WHOLE}
        max="30"
        {...bound(props, 'extendByDays')}
      />
      <TextInput
        id="c-max-extensions"
        label="Extensions before refunding"
        type="number"
        inputMode="numeric"
        min="0"
        max="3"
        step="1"
        {...bound(props, 'maxExtensions')}
      />
    </FieldRow>
  );
}

/** Category, status, product name and the prize value. */
export function CategoryRow(props: RowProps) {
  return (
    <FieldRow>
      <Control>
        <label htmlFor="c-category">Category</label>
        <select
          id="c-category"
          value={props.values.category}
          onChange={props.onText('category')}
          aria-invalid={props.errors.category ? true : undefined}
        >
          <option value="">Select a category</option>
          {ADMIN_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        {props.errors.category && <small>{props.errors.category}</small>}
      </Control>
      <Control>
        <label htmlFor="c-status">Status</label>
        <select id="c-status" value={props.values.status} onChange={props.onText('status')}>
          <option value="draft">Draft</option>
          <option value="active">Active</option>
          <option value="archived">Archived</option>
          <option value="ended">Ended</option>
        </select>
      </Control>
      <TextInput id="c-product" label="Product Name (optional)" {...bound(props, 'productName')} />
      <TextInput
        id="c-prize-value"
        label="Prize value (£, optional)"
        type="number"
        inputMode="decimal"
        min="0"
        step="0.01"
        placeholder="Not stated"
        {...bound(props, 'prizeValue')}
      />
    </FieldRow>
  );
}
