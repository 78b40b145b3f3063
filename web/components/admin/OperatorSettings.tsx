import { type FormEvent, useEffect, useState } from 'react';
import type { OperatorSettingsView, OperatorSettings as Saved } from '../../../contract/receipts';
import { apiSend } from '../../api/client';
import { Button } from '../ui/Button';
import { Field, Form, TextAreaField } from '../ui/Form';
import { Card } from '../ui/Page';
import { Muted } from './AdminUi';
import { useAdminData } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

const PATH = '/api/admin/settings/operator';

/** Who runs the site: the seller named on every customer's printable receipt. */
export function OperatorSettings() {
  const setting = useAdminData<OperatorSettingsView>(PATH);
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const { busy, run } = useAdminMutation();
  useEffect(() => {
    setName(setting.data?.operatorName ?? '');
    setAddress(setting.data?.operatorAddress ?? '');
  }, [setting.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const saved = await run(
      () => apiSend<Saved>('PUT', PATH, { operatorName: name, operatorAddress: address }),
      {
        success: () => ({ title: 'Operator details saved', description: 'Receipts now show them.' }),
        failureTitle: 'Could not save the operator details',
        fallback: 'Please try again.',
      },
    );
    if (saved) setting.reload();
  };

  return (
    <Card data-testid="operator-settings">
      <h2>Operator details</h2>
      <Muted>The business name and postal address printed on customers' receipts.</Muted>
      <Form onSubmit={submit}>
        <Field
          id="operatorName"
          label="Operator name"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          disabled={!setting.data}
        />
        <TextAreaField
          id="operatorAddress"
          label="Operator address"
          rows={4}
          maxLength={500}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          disabled={!setting.data}
        />
        <Button type="submit" disabled={busy || !setting.data}>
          {busy ? 'Saving...' : 'Save operator details'}
        </Button>
      </Form>
    </Card>
  );
}
