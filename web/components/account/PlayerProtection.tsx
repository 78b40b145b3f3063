import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { formatDayAndTime } from '../../../contract/londonTime';
import { formatPence, poundsToPence } from '../../../contract/money';
import {
  formatLimit,
  SELF_EXCLUSION_PERIODS,
  type SelfExclusionPeriod,
  selfExcludedMessage,
} from '../../../contract/protection';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox, Field } from '../ui/Form';
import { Card } from '../ui/Page';

// My Account's player protection: a monthly spending limit and a break (time-out or
// self-exclusion). The rules are the server's (docs/product.md#player-protection); this shows them.

const Section = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.xl}; }
  p { margin: 0; }
  form { display: flex; flex-wrap: wrap; gap: ${({ theme }) => theme.space.sm}; align-items: end; }
  select { min-height: 44px; }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
`;

export function SpendingLimits() {
  const limits = useRoute<typeof ACCOUNT_ROUTES.spendLimits>(
    { method: 'GET', path: '/api/account/limits' },
    {},
  );
  const [pounds, setPounds] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();

  const save = async (monthlySpendLimitPence: number | null) => {
    setSaving(true);
    setError(undefined);
    try {
      const saved = await call<typeof ACCOUNT_ROUTES.setSpendLimit>(
        { method: 'PUT', path: '/api/account/limits' },
        { body: { monthlySpendLimitPence } },
      );
      setPounds('');
      limits.reload();
      toast({
        title: saved.pending ? 'Your change will apply in 24 hours' : 'Your spending limit is saved',
        variant: 'success',
      });
    } catch (err) {
      setError(messageOf(err, 'Your limit could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = Number(pounds);
    if (pounds.trim() === '' || !Number.isFinite(value) || value < 0) {
      setError('Enter a monthly limit in pounds, such as 50.');
      return;
    }
    void save(poundsToPence(value));
  };

  const data = limits.data;
  return (
    <Section aria-labelledby="limits-title">
      <h2 id="limits-title">Spending limits</h2>
      {limits.error && <ErrorBox>We couldn't load your spending limit.</ErrorBox>}
      {data && (
        <>
          <p data-testid="spend-limit">
            {data.monthlySpendLimitPence === null
              ? 'You have no monthly spending limit.'
              : `Your monthly spending limit is ${formatLimit(data.monthlySpendLimitPence)}.`}{' '}
            You have spent {formatPence(data.spentThisMonthPence)} this month.
          </p>
          {data.pending && (
            <p data-testid="pending-limit">
              {data.pending.monthlySpendLimitPence === null
                ? 'Your limit will be removed'
                : `Your new limit of ${formatLimit(data.pending.monthlySpendLimitPence)} applies`}{' '}
              from {formatDayAndTime(data.pending.effectiveAt)}. A lower limit applies at once; a higher one,
              or none, after 24 hours.
            </p>
          )}
        </>
      )}
      <form onSubmit={submit} noValidate aria-label="Monthly spending limit">
        <Field
          id="spend-limit-pounds"
          label="Monthly limit (£)"
          inputMode="decimal"
          value={pounds}
          onChange={(e) => setPounds(e.target.value)}
        />
        <Actions>
          <Button type="submit" disabled={saving}>
            Save limit
          </Button>
          {data?.monthlySpendLimitPence !== null && data !== undefined && (
            <Button type="button" $variant="secondary" disabled={saving} onClick={() => void save(null)}>
              Remove limit
            </Button>
          )}
        </Actions>
      </form>
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
    </Section>
  );
}

export function TakeABreak() {
  const state = useRoute<typeof ACCOUNT_ROUTES.selfExclusion>(
    { method: 'GET', path: '/api/account/self-exclusion' },
    {},
  );
  const [period, setPeriod] = useState<SelfExclusionPeriod>('24h');
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();

  const start = async () => {
    setSaving(true);
    setError(undefined);
    try {
      await call<typeof ACCOUNT_ROUTES.startSelfExclusion>(
        { method: 'POST', path: '/api/account/self-exclusion' },
        { body: { period } },
      );
      setConfirming(false);
      state.reload();
      toast({ title: 'Your break has started', variant: 'success' });
    } catch (err) {
      setError(messageOf(err, 'Your break could not be started. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  const until = state.data?.selfExcludedUntil ?? null;
  return (
    <Section aria-labelledby="break-title">
      <h2 id="break-title">Take a break</h2>
      {until ? (
        <p role="status" data-testid="break-until">
          {selfExcludedMessage(until)} You can sign in and see your entries, and we send you no marketing. A
          break cannot be ended early.
        </p>
      ) : (
        <>
          <p>
            Step away for a while: during a break you cannot hold or buy tickets, anything in your cart is
            released, and we send you no marketing. It cannot be ended early, by you or by us.
          </p>
          <form
            aria-label="Take a break"
            onSubmit={(e) => {
              e.preventDefault();
              setConfirming(true);
            }}
          >
            <label htmlFor="break-period">Take a break for</label>
            <select
              id="break-period"
              value={period}
              onChange={(e) => setPeriod(e.target.value as SelfExclusionPeriod)}
            >
              {Object.entries(SELF_EXCLUSION_PERIODS).map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
            <Button type="submit" $variant="secondary" disabled={saving || state.loading}>
              Take a break
            </Button>
          </form>
          {confirming && (
            <div role="alertdialog" aria-labelledby="break-confirm">
              <p id="break-confirm">
                Start a break of {SELF_EXCLUSION_PERIODS[period]}? You will not be able to buy tickets until
                it ends, and it cannot be undone.
              </p>
              <Actions>
                <Button type="button" disabled={saving} onClick={() => void start()}>
                  Yes, start my break
                </Button>
                <Button type="button" $variant="secondary" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
              </Actions>
            </div>
          )}
        </>
      )}
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
    </Section>
  );
}
