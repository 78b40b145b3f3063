import { useState } from 'react';
import { MARKETING_CONSENT_LABEL, type PreferencesView, type PublicUser } from '../../../contract/auth';
import { apiSend, messageOf } from '../../api/client';
import { formatLongDate } from '../../format';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';
import { Checkbox, ErrorBox } from '../ui/Form';

/** Privacy > Marketing e-mails: the consent box, saved as soon as it changes. */
export function MarketingConsent({ user }: { user: PublicUser }) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [changedAt, setChangedAt] = useState<string | null>(null);

  const change = async (marketingEmails: boolean) => {
    setSaving(true);
    setError(undefined);
    try {
      const saved = await apiSend<PreferencesView>('PUT', '/api/account/preferences', { marketingEmails });
      useAuth.getState().setUser({ ...user, marketingEmails: saved.marketingEmails });
      setChangedAt(saved.marketingEmailsUpdatedAt);
      toast({
        title: saved.marketingEmails ? 'Marketing e-mails turned on' : 'Marketing e-mails turned off',
        variant: 'success',
      });
    } catch (err) {
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
      <Checkbox
        id="privacy-marketing"
        checked={Boolean(user.marketingEmails)}
        disabled={saving}
        onChange={change}
      >
        {MARKETING_CONSENT_LABEL}
      </Checkbox>
      {changedAt && <p role="status">Saved on {formatLongDate(changedAt)}.</p>}
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
    </div>
  );
}
