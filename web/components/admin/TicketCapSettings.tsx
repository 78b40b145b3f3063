import { type FormEvent, useEffect, useState } from 'react';
import type { TicketCapSetting } from '../../../contract/admin';
import { apiSend } from '../../api/client';
import { Button } from '../ui/Button';
import { Field, Form } from '../ui/Form';
import { Card } from '../ui/Page';
import { Muted } from './AdminUi';
import { useAdminData } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

const PATH = '/api/admin/settings/ticket-cap';

/**
 * The default per-person cap: every competition without its own limit uses it, guests included
 * (docs/security.md, "Caps and hold limits"). A competition's own limit is set on its form.
 */
export function TicketCapSettings() {
  const setting = useAdminData<TicketCapSetting>(PATH);
  const [value, setValue] = useState('');
  const { busy, run } = useAdminMutation();
  useEffect(() => {
    if (setting.data) setValue(String(setting.data.defaultMaxTicketsPerUser));
  }, [setting.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const saved = await run(
      () => apiSend<TicketCapSetting>('PUT', PATH, { defaultMaxTicketsPerUser: Number(value) }),
      {
        success: (r) => ({
          title: 'Limit saved',
          description: `Competitions without their own limit now allow ${r.defaultMaxTicketsPerUser} tickets per person.`,
        }),
        failureTitle: 'Could not save the limit',
        fallback: 'Please try again.',
      },
    );
    if (saved) setting.reload();
  };

  return (
    <Card data-testid="ticket-cap-settings">
      <h2>Tickets per person</h2>
      <Muted>
        The most tickets one person (an account, or a guest's browser) may hold and buy in a competition that
        has no limit of its own. Stops one visitor holding a whole competition.
      </Muted>
      <Form onSubmit={submit}>
        <Field
          id="defaultMaxTicketsPerUser"
          label="Default limit per person"
          type="number"
          inputMode="numeric"
          min={1}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          disabled={!setting.data}
        />
        <Button type="submit" disabled={busy || !setting.data}>
          {busy ? 'Saving...' : 'Save limit'}
        </Button>
      </Form>
    </Card>
  );
}
