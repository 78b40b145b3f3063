import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import type { CLAIM_ROUTES } from '../../../contract/apiClaims';
import type { PublicUser } from '../../../contract/auth';
import { addressLine, type DeliveryAddress, DeliveryAddressSchema } from '../../../contract/claims';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox, fieldErrors } from '../ui/Form';
import { AddressFields, EMPTY_ADDRESS } from './AddressFields';

/** My Profile's delivery address (docs/draws.md#7-claiming-a-prize): a prize's claim starts from it. */
export function DeliveryAddressSection({ user }: { user: PublicUser }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<DeliveryAddress>(user.deliveryAddress ?? EMPTY_ADDRESS);
  const [errors, setErrors] = useState<Partial<Record<keyof DeliveryAddress, string>>>({});
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const result = v.safeParse(DeliveryAddressSchema, value);
    if (!result.success) {
      setErrors(fieldErrors(result.issues) as Partial<Record<keyof DeliveryAddress, string>>);
      return;
    }
    setSaving(true);
    setErrors({});
    setError(undefined);
    try {
      const updated = await call<typeof CLAIM_ROUTES.deliveryAddress>(
        { method: 'PUT', path: '/api/user/delivery-address' },
        { body: result.output },
      );
      useAuth.getState().setUser(updated);
      setValue(updated.deliveryAddress ?? EMPTY_ADDRESS);
      setEditing(false);
      toast({ title: 'Delivery address saved', variant: 'success' });
    } catch (err) {
      setError(messageOf(err, 'Your address could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  if (!editing) {
    return (
      <div>
        <span data-testid="delivery-address">
          {user.deliveryAddress ? addressLine(user.deliveryAddress) : 'No address yet'}
        </span>{' '}
        <Button type="button" $variant="ghost" onClick={() => setEditing(true)}>
          {user.deliveryAddress ? 'Edit' : 'Add address'}
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={save} noValidate aria-label="Delivery address">
      <AddressFields idPrefix="profile-address" value={value} errors={errors} onChange={setValue} />
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save address'}
        </Button>
        <Button
          type="button"
          $variant="ghost"
          onClick={() => {
            setEditing(false);
            setValue(user.deliveryAddress ?? EMPTY_ADDRESS);
            setErrors({});
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
