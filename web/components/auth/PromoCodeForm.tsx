import { useState } from 'react';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { type PromoRedeemedView, RedeemPromoCodeSchema } from '../../../contract/auth';
import { formatPounds } from '../../../contract/money';
import { call } from '../../api/call';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

/** 'Have a promo code?': redeems it as site credit; `onRedeemed` reloads what shows the balance. */
export function PromoCodeForm({ onRedeemed }: { onRedeemed: (view: PromoRedeemedView) => void }) {
  const [code, setCode] = useState('');
  const { submit, errors, formError, busy } = useValidatedSubmit(
    RedeemPromoCodeSchema,
    { code },
    async (input) => {
      const view = await call<typeof ACCOUNT_ROUTES.redeemPromoCode>(
        { method: 'POST', path: '/api/account/promo-code' },
        { body: input },
      );
      setCode('');
      toast({
        title: 'Promo code applied',
        description: `${formatPounds(view.amount)} site credit added`,
        variant: 'success',
      });
      onRedeemed(view);
    },
    'The promo code could not be applied',
  );
  return (
    <Form onSubmit={submit} noValidate aria-label="Promo code">
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id="promo-code"
        label="Have a promo code?"
        autoComplete="off"
        autoCapitalize="characters"
        value={code}
        error={errors.code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" $variant="ghost" disabled={busy}>
        {busy ? 'Applying...' : 'Apply code'}
      </Button>
    </Form>
  );
}
