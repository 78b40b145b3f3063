import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import {
  ADMIN_CATEGORIES,
  type AdminCompetitionView,
  CompetitionCreateSchema,
  UploadResultSchema,
} from '../../../contract/admin';
import { INSTANT_WINS_LOCKED } from '../../../contract/instantWins';
import { londonToday } from '../../../contract/londonTime';
import { apiSend, apiUpload, errorDetails, FieldErrorsSchema, messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Checkbox, ErrorBox } from '../ui/Form';
import { Control, DialogActions, FieldRow } from './AdminUi';
import {
  type CompetitionFormValues,
  competitionBody,
  competitionValues,
  emptyCompetitionValues,
  formFieldOf,
} from './competitionForm';
import { InstantWinFields } from './InstantWinFields';
import { IMAGE_ACCEPT, INVALID_TYPE_HINT, isAcceptedImage } from './imageFiles';
import { instantWinListErrors } from './instantWinForm';
import { MainPrizeFields } from './MainPrizeFields';
import { SkillPoolFields } from './SkillPoolFields';

const Scroll = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  fieldset {
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.md};
    display: grid;
    gap: ${({ theme }) => theme.space.sm};
    min-width: 0;
  }
  legend { font-weight: 700; color: ${({ theme }) => theme.colors.brand}; padding: 0 4px; }
`;

const Preview = styled.img`
  width: 120px;
  height: 90px;
  object-fit: cover;
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;

function Text({
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
} & React.InputHTMLAttributes<HTMLInputElement>) {
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

/** Uploads the chosen picture; a failure is reported and the save goes on without it (spec). */
async function uploadImage(file: File): Promise<string | undefined> {
  try {
    const answer = await apiUpload<unknown>('/api/admin/upload-image', file);
    const parsed = v.safeParse(UploadResultSchema, answer);
    if (!parsed.success) throw new Error('Response is missing image URL');
    return parsed.output.imageUrl;
  } catch (err) {
    toast({
      title: 'Upload failed',
      description: messageOf(err, 'Failed to upload image'),
      variant: 'destructive',
    });
    return undefined;
  }
}

/** The create/edit competition dialog with every field of the spec and the engine's extras. */
export function CompetitionFormDialog({
  open,
  competition,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: create a new one. */
  competition: AdminCompetitionView | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [values, setValues] = useState<CompetitionFormValues>(emptyCompetitionValues);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(competition ? competitionValues(competition) : emptyCompetitionValues());
    setFile(null);
    setErrors({});
    setFormError(undefined);
  }, [open, competition]);

  useEffect(() => {
    if (!file) {
      setPreview(undefined);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const set =
    <K extends keyof CompetitionFormValues>(key: K) =>
    (value: CompetitionFormValues[K]) =>
      setValues((s) => ({ ...s, [key]: value }));
  const onText = (key: keyof CompetitionFormValues) => (e: { target: { value: string } }) =>
    set(key)(e.target.value as never);

  const chooseFile = (chosen: File | undefined) => {
    if (!chosen) return setFile(null);
    if (!isAcceptedImage(chosen)) {
      toast({ title: 'Invalid file type', description: INVALID_TYPE_HINT, variant: 'destructive' });
      return setFile(null);
    }
    setFile(chosen);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const today = londonToday();
    const found: Record<string, string> = {};
    const parsed = v.safeParse(CompetitionCreateSchema, competitionBody(values));
    if (!parsed.success) for (const i of parsed.issues) found[formFieldOf(i.path)] ??= i.message;
    if (values.instantWins)
      for (const [k, m] of Object.entries(
        instantWinListErrors(values.instantWins, Number(values.totalTickets)),
      ))
        found[k] ??= m;
    // The calendar offers no past day; a typed one is refused the same way.
    if (!found.endDate && values.endDate < today && values.status === 'active')
      found.endDate = 'End date must be in the future';
    setErrors(found);
    if (Object.keys(found).length) return;

    setBusy(true);
    try {
      const image = file ? ((await uploadImage(file)) ?? values.image) : values.image;
      const body = { ...competitionBody(values), image };
      if (competition) {
        await apiSend('PUT', `/api/admin/competitions/${competition.id}`, body);
        toast({ title: 'Competition updated', description: values.title, variant: 'success' });
      } else {
        await apiSend('POST', '/api/admin/competitions', body);
        toast({ title: 'Competition created', description: values.title, variant: 'success' });
      }
      onSaved();
    } catch (err) {
      const message = messageOf(err, 'The competition could not be saved');
      // A field the server refused (e.g. totalTickets below a held number) shows beside that field.
      const fields = errorDetails(err, FieldErrorsSchema)?.fields;
      if (fields) {
        const mapped: Record<string, string> = {};
        for (const [k, m] of Object.entries(fields)) {
          mapped[formFieldOf(k.split('.').map((key) => ({ key })))] ??= m;
        }
        setErrors(mapped);
      }
      // The list is locked once a ticket was held or sold: said in the section too.
      if (message === INSTANT_WINS_LOCKED) setErrors((e) => ({ ...e, instantWins: message }));
      setFormError(message);
      toast({ title: 'Submission error', description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={competition ? 'Edit Competition' : 'Create Competition'}
      wide
      testId="competition-dialog"
    >
      <Scroll onSubmit={(e) => void submit(e)} noValidate>
        <Text
          id="c-title"
          label="Title"
          value={values.title}
          onChange={onText('title')}
          error={errors.title}
        />
        <Control>
          <label htmlFor="c-description">Description</label>
          <textarea id="c-description" value={values.description} onChange={onText('description')} />
          {errors.description && <small>{errors.description}</small>}
        </Control>
        <FieldRow>
          <Text
            id="c-price"
            label="Ticket Price (£)"
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={values.ticketPrice}
            onChange={onText('ticketPrice')}
            error={errors.ticketPrice}
          />
          <Text
            id="c-total"
            label="Total Tickets"
            type="number"
            inputMode="numeric"
            min="1"
            step="1"
            value={values.totalTickets}
            onChange={onText('totalTickets')}
            error={errors.totalTickets}
          />
          <Text
            id="c-cap"
            label="Max tickets per person"
            type="number"
            inputMode="numeric"
            min="1"
            step="1"
            placeholder="Site default"
            value={values.maxTicketsPerUser}
            onChange={onText('maxTicketsPerUser')}
            error={errors.maxTicketsPerUser}
          />
          <Text
            id="c-cash"
            label="Cash alternative (£, optional)"
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            placeholder="None"
            value={values.cashAlternative}
            onChange={onText('cashAlternative')}
            error={errors.cashAlternative}
          />
        </FieldRow>
        <FieldRow>
          <Text
            id="c-end-date"
            label="End Date"
            type="date"
            min={londonToday()}
            value={values.endDate}
            onChange={onText('endDate')}
            error={errors.endDate}
          />
          <Text
            id="c-end-time"
            label="Draw time (UK)"
            type="time"
            value={values.endTime}
            onChange={onText('endTime')}
          />
        </FieldRow>
        <FieldRow>
          <Control>
            <label htmlFor="c-category">Category</label>
            <select
              id="c-category"
              value={values.category}
              onChange={onText('category')}
              aria-invalid={errors.category ? true : undefined}
            >
              <option value="">Select a category</option>
              {ADMIN_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            {errors.category && <small>{errors.category}</small>}
          </Control>
          <Control>
            <label htmlFor="c-status">Status</label>
            <select id="c-status" value={values.status} onChange={onText('status')}>
              <option value="active">Active</option>
              <option value="archived">Archived</option>
              <option value="ended">Ended</option>
            </select>
          </Control>
          <Text
            id="c-product"
            label="Product Name (optional)"
            value={values.productName}
            onChange={onText('productName')}
            error={errors.productName}
          />
          <Text
            id="c-prize-value"
            label="Prize value (£, optional)"
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            placeholder="Not stated"
            value={values.prizeValue}
            onChange={onText('prizeValue')}
            error={errors.prizeValue}
          />
        </FieldRow>
        <Checkbox id="c-autowin" checked={values.autoWin} onChange={set('autoWin')}>
          Auto-win (an instant prize, listed after the draws)
        </Checkbox>
        <Control>
          <label htmlFor="c-features">Features (one per line)</label>
          <textarea id="c-features" value={values.features} onChange={onText('features')} />
          {errors.features && <small>{errors.features}</small>}
        </Control>
        <Control>
          <label htmlFor="c-image">Image</label>
          <input
            id="c-image"
            type="file"
            accept={IMAGE_ACCEPT}
            onChange={(e) => chooseFile(e.target.files?.[0])}
          />
          <small className="hint">PNG, JPEG, GIF or WEBP, up to 5 MB. Uploaded when you save.</small>
          {(preview ?? values.image) && (
            <Preview src={preview ?? values.image ?? ''} alt="Competition image preview" />
          )}
        </Control>
        <MainPrizeFields prizes={values.prizes} errors={errors} onChange={set('prizes')} />
        <InstantWinFields
          rows={values.instantWins}
          locked={(competition?.ticketsSold ?? 0) > 0}
          errors={errors}
          onChange={set('instantWins')}
        />
        <SkillPoolFields questions={values.questions} errors={errors} onChange={set('questions')} />
        {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
        <DialogActions>
          <Button type="button" $variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : competition ? 'Update Competition' : 'Create Competition'}
          </Button>
        </DialogActions>
      </Scroll>
    </Dialog>
  );
}
