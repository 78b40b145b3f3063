import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import type * as v from 'valibot';
import type { AdminCompetitionView, CompetitionCreateSchema } from '../../../contract/admin';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { DRAW_ROUTES } from '../../../contract/apiDraws';
import { INSTANT_WINS_LOCKED } from '../../../contract/instantWins';
import { londonToday } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { errorDetails, FieldErrorsSchema, messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Checkbox, ErrorBox } from '../ui/Form';
import { Control, DialogActions } from './AdminUi';
import { BundleFields } from './BundleFields';
import {
  bound,
  CategoryRow,
  DrawTimeRow,
  MinimumSalesRow,
  NumbersRow,
  type OnText,
  OpeningRow,
  type RowProps,
  TextInput,
} from './CompetitionFields';
import {
  type CompetitionFormValues,
  competitionBody,
  competitionFormErrors,
  competitionValues,
  emptyCompetitionValues,
  formFieldErrors,
} from './competitionForm';
import { GalleryFields } from './GalleryFields';
import { InstantWinFields } from './InstantWinFields';
import { instantWinRowsOf } from './instantWinForm';
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

/** The create/edit competition dialog with every field of the spec and the engine's extras. */

type CompetitionCreateBody = v.InferInput<typeof CompetitionCreateSchema>;

/** "Replace the instant wins" starts from the list as the server has it now. */
const currentInstantWins = async (id: number) =>
  instantWinRowsOf((await call(DRAW_ROUTES.adminCompetition, { params: { id } })).instantWins ?? []);

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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(competition ? competitionValues(competition) : emptyCompetitionValues());
    setErrors({});
    setFormError(undefined);
  }, [open, competition]);

  const set =
    <K extends keyof CompetitionFormValues>(key: K) =>
    (value: CompetitionFormValues[K]) =>
      setValues((s) => ({ ...s, [key]: value }));
  const onText: OnText = (key) => (e) => set(key)(e.target.value as never);
  const fieldProps: RowProps = { values, errors, onText };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const found = competitionFormErrors(values, londonToday());
    setErrors(found);
    if (Object.keys(found).length) return;

    setBusy(true);
    try {
      // A cash value that is not a number goes as typed (competitionForm.ts): the server names it.
      const body = competitionBody(values) as CompetitionCreateBody;
      if (competition) {
        await call(ADMIN_CATALOGUE_ROUTES.updateCompetition, { params: { id: competition.id }, body });
        toast({ title: 'Competition updated', description: values.title, variant: 'success' });
      } else {
        await call(ADMIN_CATALOGUE_ROUTES.createCompetition, { body });
        toast({ title: 'Competition created', description: values.title, variant: 'success' });
      }
      onSaved();
    } catch (err) {
      const message = messageOf(err, 'The competition could not be saved');
      // A field the server refused (e.g. totalTickets below a held number) shows beside that field.
      const fields = errorDetails(err, FieldErrorsSchema)?.fields;
      if (fields) setErrors(formFieldErrors(fields));
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
        <TextInput id="c-title" label="Title" {...bound(fieldProps, 'title')} />
        <Control>
          <label htmlFor="c-description">Description</label>
          <textarea id="c-description" value={values.description} onChange={onText('description')} />
          {errors.description && <small>{errors.description}</small>}
        </Control>
        <NumbersRow {...fieldProps} />
        <DrawTimeRow {...fieldProps} />
        <OpeningRow {...fieldProps} />
        <MinimumSalesRow {...fieldProps} />
        <CategoryRow {...fieldProps} />
        <Checkbox id="c-autowin" checked={values.autoWin} onChange={set('autoWin')}>
          Auto-win (an instant prize, listed after the draws)
        </Checkbox>
        <Control>
          <label htmlFor="c-features">Features (one per line)</label>
          <textarea id="c-features" value={values.features} onChange={onText('features')} />
          {errors.features && <small>{errors.features}</small>}
        </Control>
        <BundleFields bundles={values.bundles} error={errors.bundles} onChange={set('bundles')} />
        <GalleryFields
          images={values.images}
          errors={errors}
          onChange={(update) => setValues((s) => ({ ...s, images: update(s.images) }))}
        />
        <MainPrizeFields prizes={values.prizes} errors={errors} onChange={set('prizes')} />
        <InstantWinFields
          rows={values.instantWins}
          locked={(competition?.ticketsSold ?? 0) > 0}
          errors={errors}
          onChange={set('instantWins')}
          loadCurrent={competition ? () => currentInstantWins(competition.id) : undefined}
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
