import { type FormEvent, useEffect, useState } from 'react';
import type { PostalAddressSetting } from '../../../contract/postal';
import { apiSend } from '../../api/client';
import { Button } from '../ui/Button';
import { Form, TextAreaField } from '../ui/Form';
import { Card } from '../ui/Page';
import { Muted } from './AdminUi';
import { useAdminData } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

const PATH = '/api/admin/settings/postal-address';

/** Where free postal entries are sent: printed on the Terms and on every competition page. */
export function PostalAddressSettings() {
  const setting = useAdminData<{ postalAddress: string | null }>(PATH);
  const [address, setAddress] = useState('');
  const { busy, run } = useAdminMutation();
  useEffect(() => setAddress(setting.data?.postalAddress ?? ''), [setting.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const saved = await run(() => apiSend<PostalAddressSetting>('PUT', PATH, { postalAddress: address }), {
      success: () => ({
        title: 'Postal entry address saved',
        description: 'The Terms and competition pages now show it.',
      }),
      failureTitle: 'Could not save the postal entry address',
      fallback: 'Please try again.',
    });
    if (saved) setting.reload();
  };

  return (
    <Card data-testid="postal-address-settings">
      <h2>Free postal entry</h2>
      <Muted>The address postcards are sent to, shown with equal prominence beside every way to buy.</Muted>
      <Form onSubmit={submit}>
        <TextAreaField
          id="postalEntryAddress"
          label="Postal entry address"
          rows={4}
          maxLength={500}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          disabled={!setting.data}
        />
        <Button type="submit" disabled={busy || !setting.data}>
          {busy ? 'Saving...' : 'Save postal entry address'}
        </Button>
      </Form>
    </Card>
  );
}
