import { useEffect, useState } from 'react';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { MARKETING_CONSENT_LABEL, type PublicUser } from '../../../contract/auth';
import { formatLongDate } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';
import { Checkbox, ErrorBox } from '../ui/Form';

/** Privacy > Marketing e-mails: the consent box, saved as soon as it changes. */
export function MarketingConsent({ user }: { user: PublicUser }) {
  // The box follows the click at once (as a checkbox should) and goes back if saving fails.
  const [checked, setChecked] = useState(Boolean(user.marketingEmails));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [changedAt, setChangedAt] = useState<string | null>(null);
  // A fresher user from the server (the page may first show the one remembered in the browser).
  useEffect(() => setChecked(Boolean(user.marketingEmails)), [user.marketingEmails]);

  const change = async (marketingEmails: boolean) => {
    setChecked(marketingEmails);
    setSaving(true);
    setError(undefined);
    try {
      const saved = await call<typeof ACCOUNT_ROUTES.preferences>(
        { method: 'PUT', path: '/api/account/preferences' },
        { body: { marketingEmails } },
      );
      useAuth.getState().setUser({ ...user, marketingEmails: saved.marketingEmails });
      setChangedAt(saved.marketingEmailsUpdatedAt);
      toast({
        title: saved.marketingEmails ? 'Marketing e-mails turned on' : 'Marketing e-mails turned off',
        variant: 'success',
      });
    } catch (err) {
      setChecked(!marketingEmails);
      setError(messageOf(err, 'Your choice could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <h3>Marketing e-mails</h3>
      <p>
        We only send news and offers if you ask for them. E-mails about your account and your orders always
        come.
      </p>
      <Checkbox id="privacy-marketing" checked={checked} disabled={saving} onChange={change}>
        {MARKETING_CONSENT_LABEL}
      </Checkbox>
      {changedAt && <p role="status">Saved on {formatLongDate(changedAt)}.</p>}
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
    </div>
  );
}
