import { useState } from 'react';
import { DATE_OF_BIRTH_LABEL, DateOfBirthSchema } from '../../../contract/age';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { londonToday } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { useAuth } from '../../stores/auth';
import { useDateOfBirthPrompt } from '../../stores/dateOfBirth';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorBox, Field, Form } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

/**
 * Asks an account made before dates of birth were asked for one, when a hold or payment was
 * refused for the lack of it (mounted once in App). Saved once; the customer then tries again.
 */
export function DateOfBirthDialog() {
  const { open, close } = useDateOfBirthPrompt();
  const [dateOfBirth, setDateOfBirth] = useState('');
  const { submit, errors, formError, busy } = useValidatedSubmit(
    DateOfBirthSchema,
    { dateOfBirth },
    async (body) => {
      const user = await call<typeof ACCOUNT_ROUTES.dateOfBirth>(
        { method: 'PUT', path: '/api/account/date-of-birth' },
        { body: body },
      );
      useAuth.getState().setUser(user);
      close();
      toast({
        title: 'Thank you',
        description: 'Your date of birth is saved. Please try again.',
        variant: 'success',
      });
    },
    'Your date of birth could not be saved',
  );
  return (
    <Dialog open={open} onClose={close} title="Your date of birth" testId="date-of-birth-dialog">
      <p>
        Entrants must be 18 or over. Please tell us your date of birth before buying tickets. It cannot be
        changed afterwards, and we may ask for proof of age before a prize is delivered.
      </p>
      <Form onSubmit={submit} noValidate>
        {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
        <Field
          id="dob-prompt"
          label={DATE_OF_BIRTH_LABEL}
          type="date"
          autoComplete="bday"
          max={londonToday()}
          value={dateOfBirth}
          error={errors.dateOfBirth}
          onChange={(e) => setDateOfBirth(e.target.value)}
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save date of birth'}
        </Button>
        <Button type="button" $variant="ghost" onClick={close}>
          Cancel
        </Button>
      </Form>
    </Dialog>
  );
}
