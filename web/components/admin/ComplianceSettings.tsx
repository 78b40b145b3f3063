import { type FormEvent, useEffect, useState } from 'react';
import type { ComplianceSettings as Saved } from '../../../contract/complaints';
import { apiSend } from '../../api/client';
import { Button } from '../ui/Button';
import { Field, Form } from '../ui/Form';
import { Card } from '../ui/Page';
import { Muted } from './AdminUi';
import { useAdminData } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

const PATH = '/api/admin/settings/compliance';

/** How long the site gives itself to answer a complaint, and which prizes need an age-verified winner. */
export function ComplianceSettings() {
  const setting = useAdminData<Saved>(PATH);
  const [days, setDays] = useState('');
  const [threshold, setThreshold] = useState('');
  const { busy, run } = useAdminMutation();
  useEffect(() => {
    if (!setting.data) return;
    setDays(String(setting.data.complaintResponseDays));
    setThreshold(setting.data.ageCheckPrizeThreshold.toFixed(2));
  }, [setting.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const saved = await run(
      () =>
        apiSend<Saved>('PUT', PATH, {
          complaintResponseDays: Number(days),
          ageCheckPrizeThreshold: Number(threshold),
        }),
      {
        success: () => ({ title: 'Compliance settings saved' }),
        failureTitle: 'Could not save the compliance settings',
        fallback: 'Please try again.',
      },
    );
    if (saved) setting.reload();
  };

  return (
    <Card data-testid="compliance-settings">
      <h2>Complaints and age checks</h2>
      <Muted>
        A complaint is due for a reply this many days after it arrives. A prize worth more than the threshold
        (or with no stated value) cannot be marked delivered until the winner is age-verified in Users.
      </Muted>
      <Form onSubmit={submit}>
        <Field
          id="complaintResponseDays"
          label="Complaint response days"
          type="number"
          min={1}
          max={56}
          value={days}
          onChange={(e) => setDays(e.target.value)}
          disabled={!setting.data}
        />
        <Field
          id="ageCheckPrizeThreshold"
          label="Age check for prizes over (£)"
          type="number"
          min={0}
          step={0.01}
          inputMode="decimal"
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
          disabled={!setting.data}
        />
        <Button type="submit" disabled={busy || !setting.data}>
          {busy ? 'Saving...' : 'Save compliance settings'}
        </Button>
      </Form>
    </Card>
  );
}
