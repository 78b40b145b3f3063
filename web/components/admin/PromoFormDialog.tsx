import { type FormEvent, useEffect, useState } from 'react';
import * as v from 'valibot';
import { PromoCreateSchema, type PromoView } from '../../../contract/admin';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { fromLondonFields, londonToday, toLondonFields } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Checkbox, ErrorBox, fieldErrors } from '../ui/Form';
import { Control, DialogActions, FieldRow } from './AdminUi';

interface PromoValues {
  name: string;
  description: string;
  creditAmount: string;
  targetUserType: 'new_user' | 'all';
  maxUsesPerUser: string;
  totalMaxUses: string;
  validFrom: string; // yyyy-mm-dd
  validUntil: string; // yyyy-mm-dd or ''
  isActive: boolean;
  autoApply: boolean;
  /** '' for none. */
  code: string;
}

/** The spec's defaults (section 5 and 9): 1 per user, 1000 in all, from today, new users, on. */
const emptyPromo = (): PromoValues => ({
  name: '',
  description: '',
  creditAmount: '',
  targetUserType: 'new_user',
  maxUsesPerUser: '1',
  totalMaxUses: '1000',
  validFrom: londonToday(),
  validUntil: '',
  isActive: true,
  autoApply: true,
  code: '',
});

const promoValues = (p: PromoView): PromoValues => ({
  name: p.name,
  description: p.description ?? '',
  creditAmount: p.creditAmount.toFixed(2),
  targetUserType: p.targetUserType,
  maxUsesPerUser: String(p.maxUsesPerUser),
  totalMaxUses: p.totalMaxUses === null ? '' : String(p.totalMaxUses),
  validFrom: toLondonFields(p.validFrom).date,
  validUntil: p.validUntil ? toLondonFields(p.validUntil).date : '',
  isActive: p.isActive,
  autoApply: p.autoApply,
  code: p.code ?? '',
});

/** Dates are whole days: valid from the start of the first day to the end of the last (UK time). */
const dayStart = (d: string) => {
  const ms = fromLondonFields(d, '00:00');
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
};
const dayEnd = (d: string) => {
  const ms = fromLondonFields(d, '23:59');
  return Number.isFinite(ms) ? new Date(ms + 59_999).toISOString() : '';
};

const bodyOf = (p: PromoValues) => ({
  name: p.name,
  description: p.description.trim() || null,
  creditAmount: p.creditAmount,
  targetUserType: p.targetUserType,
  maxUsesPerUser: p.maxUsesPerUser,
  totalMaxUses: p.totalMaxUses,
  validFrom: dayStart(p.validFrom),
  // Empty is sent as null (spec).
  validUntil: p.validUntil ? dayEnd(p.validUntil) : null,
  isActive: p.isActive,
  autoApply: p.autoApply,
  // Empty clears the code: the promo is then applied automatically only.
  code: p.code.trim(),
});

/** Required here although the schema has defaults: the form shows them and they must stay filled. */
const REQUIRED: Array<[keyof PromoValues, string]> = [
  ['creditAmount', 'Credit amount is required'],
  ['maxUsesPerUser', 'Max uses per user must be at least 1'],
  ['totalMaxUses', 'Total max uses must be at least 1'],
  ['validFrom', 'Valid from must be a date'],
];

/** The promo's fields; each error shows beside its field. */
function PromoFields({
  values,
  errors,
  onChange,
}: {
  values: PromoValues;
  errors: Record<string, string>;
  onChange: (patch: Partial<PromoValues>) => void;
}) {
  const text = (key: keyof PromoValues) => (e: { target: { value: string } }) =>
    onChange({ [key]: e.target.value });
  const field = (
    id: keyof PromoValues,
    label: string,
    input: React.InputHTMLAttributes<HTMLInputElement>,
  ) => (
    <Control>
      <label htmlFor={`promo-${id}`}>{label}</label>
      <input
        id={`promo-${id}`}
        value={String(values[id])}
        onChange={text(id)}
        aria-invalid={errors[id] ? true : undefined}
        {...input}
      />
      {errors[id] && <small>{errors[id]}</small>}
    </Control>
  );

  return (
    <>
      <FieldRow>
        {field('name', 'Name', {})}
        {field('code', 'Promo Code (optional)', {
          placeholder: 'e.g. WINTER-5',
          autoCapitalize: 'characters',
        })}
      </FieldRow>
      <Control>
        <label htmlFor="promo-description">Description</label>
        <textarea id="promo-description" value={values.description} onChange={text('description')} />
        {errors.description && <small>{errors.description}</small>}
      </Control>
      <FieldRow>
        {field('creditAmount', 'Credit Amount (£)', {
          type: 'number',
          min: 0,
          step: 0.01,
          placeholder: '5.00',
          inputMode: 'decimal',
        })}
        <Control>
          <label htmlFor="promo-target">Target Users</label>
          <select id="promo-target" value={values.targetUserType} onChange={text('targetUserType')}>
            <option value="new_user">New users</option>
            <option value="all">All users</option>
          </select>
        </Control>
      </FieldRow>
      <FieldRow>
        {field('maxUsesPerUser', 'Max Uses Per User', {
          type: 'number',
          min: 1,
          step: 1,
          inputMode: 'numeric',
        })}
        {field('totalMaxUses', 'Total Max Uses', { type: 'number', min: 1, step: 1, inputMode: 'numeric' })}
      </FieldRow>
      <FieldRow>
        {field('validFrom', 'Valid From', { type: 'date' })}
        {field('validUntil', 'Valid Until (optional)', { type: 'date', min: values.validFrom })}
      </FieldRow>
      <Checkbox id="promo-active" checked={values.isActive} onChange={(isActive) => onChange({ isActive })}>
        Active
      </Checkbox>
      <Checkbox id="promo-auto" checked={values.autoApply} onChange={(autoApply) => onChange({ autoApply })}>
        Apply automatically (new accounts on registration; for all users, existing customers at their next
        sign-in). Off: only its promo code grants it
      </Checkbox>
    </>
  );
}

/** Create or edit a site credit promo. */
export function PromoFormDialog({
  open,
  promo,
  onClose,
  onSaved,
}: {
  open: boolean;
  promo: PromoView | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [values, setValues] = useState<PromoValues>(emptyPromo);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setValues(promo ? promoValues(promo) : emptyPromo());
    setErrors({});
    setFormError(undefined);
  }, [open, promo]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const body = bodyOf(values);
    const parsed = v.safeParse(PromoCreateSchema, body);
    const found = parsed.success ? {} : fieldErrors(parsed.issues);
    for (const [key, message] of REQUIRED) if (String(values[key]).trim() === '') found[key] ??= message;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      if (promo) await call(ADMIN_ACCOUNT_ROUTES.updatePromo, { params: { id: promo.id }, body });
      else await call(ADMIN_ACCOUNT_ROUTES.createPromo, { body: body });
      toast({
        title: promo ? 'Promo updated successfully' : 'Promo created successfully',
        variant: 'success',
      });
      onSaved();
    } catch (err) {
      const message = messageOf(err, 'The promo could not be saved');
      setFormError(message);
      toast({ title: 'Error', description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={promo ? 'Edit Promo' : 'Create Promo'}
      wide
      testId="promo-dialog"
    >
      <form onSubmit={(e) => void submit(e)} noValidate style={{ display: 'grid', gap: 16 }}>
        <PromoFields
          values={values}
          errors={errors}
          onChange={(patch) => setValues((s) => ({ ...s, ...patch }))}
        />
        {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
        <DialogActions>
          <Button type="button" $variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : promo ? 'Update Promo' : 'Create Promo'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
