import { useState } from 'react';
import { useLocation } from 'wouter';
import { DELETE_CONFIRMATION_PHRASE, DeleteAccountFormSchema } from '../../../contract/account';
import { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { call } from '../../api/call';
import { apiDownload, messageOf } from '../../api/client';
import { Button } from '../../components/ui/Button';
import { ErrorBox, Field, Form, fieldBinder } from '../../components/ui/Form';
import { useValidatedSubmit } from '../../components/ui/useValidatedSubmit';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';

// My Account → Privacy: a copy of your data, and deleting the account (docs/product.md#privacy);
// shown inside components/account/PrivacySection with the marketing consent.

export function DownloadData() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await apiDownload(ACCOUNT_ROUTES.exportAccount.path, 'my-data.json');
    } catch (err) {
      setError(messageOf(err, 'Your data could not be downloaded. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="download-title">
      <h3 id="download-title">Download my data</h3>
      <p>A JSON file with your profile, consents, orders, entries, credit history and sessions.</p>
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <Button type="button" $variant="secondary" onClick={download} disabled={busy}>
        {busy ? 'Preparing...' : 'Download my data'}
      </Button>
    </section>
  );
}

export function DeleteAccount() {
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ password: '', confirmation: '' });
  const { submit, errors, formError, busy } = useValidatedSubmit(
    DeleteAccountFormSchema,
    values,
    async ({ password }) => {
      const answer = await call<typeof ACCOUNT_ROUTES.deleteAccount>(
        { method: 'DELETE', path: '/api/account' },
        { body: { password } },
      );
      await useAuth.getState().refresh();
      toast({ title: answer.message, variant: 'success' });
      navigate('/', { replace: true });
    },
    'Your account could not be deleted. Please try again.',
  );
  const field = fieldBinder(values, setValues, errors);
  return (
    <Form onSubmit={submit} noValidate aria-labelledby="delete-title">
      <h3 id="delete-title">Delete my account</h3>
      <p>
        Your name, e-mail address, phone number and login are erased and you are signed out. Numbers in your
        cart are released. Your orders and credit history are kept, without your name, as our accounts must
        be. This cannot be undone.
      </p>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id="delete-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        {...field('password')}
      />
      <Field
        id="delete-confirmation"
        label={`Type ${DELETE_CONFIRMATION_PHRASE} to confirm`}
        autoComplete="off"
        {...field('confirmation')}
      />
      <Button type="submit" $variant="danger" disabled={busy}>
        {busy ? 'Deleting...' : 'Delete my account'}
      </Button>
    </Form>
  );
}
