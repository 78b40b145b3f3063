import { type FormEvent, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import {
  NICKNAME_MAX,
  NICKNAME_RULES,
  PUBLIC_NAME_MODES,
  type PublicNameMode,
  PublicNameSchema,
  type PublicNameView,
} from '../../../contract/publicNames';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox, Field } from '../ui/Form';

const Choices = styled.fieldset`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  border: 0;
  margin: 0 0 ${({ theme }) => theme.space.sm};
  padding: 0;
  legend { font-weight: 600; margin-bottom: ${({ theme }) => theme.space.xs}; }
  label { display: flex; gap: ${({ theme }) => theme.space.xs}; align-items: center; }
  input[type='radio'] { width: 18px; height: 18px; }
`;

const LABELS: Record<PublicNameMode, (initial: string) => string> = {
  initial: (initial) => `My first name and initial (${initial})`,
  nickname: () => 'A nickname',
  anonymous: () => 'Anonymous',
};

/**
 * My Profile's "Public name" (docs/product.md#public-names-and-winner-stories): how the entries
 * list, the grid, /winners and the live draw name the customer.
 */
export function PublicNameSection() {
  const current = useRoute<typeof ACCOUNT_ROUTES.publicName>(
    { method: 'GET', path: '/api/account/public-name' },
    {},
  );
  const [saved, setSaved] = useState<PublicNameView>();
  const [mode, setMode] = useState<PublicNameMode>('initial');
  const [nickname, setNickname] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const shown = saved ?? current.data;
  // From the stored choice once read, unless the customer has already started choosing.
  const touched = useRef(false);
  const storedMode = current.data?.mode;
  const storedNickname = current.data?.nickname;
  useEffect(() => {
    if (!storedMode || touched.current) return;
    setMode(storedMode);
    setNickname(storedNickname ?? '');
  }, [storedMode, storedNickname]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(PublicNameSchema, mode === 'nickname' ? { mode, nickname } : { mode });
    if (!parsed.success) {
      setError(parsed.issues[0]?.message);
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const view = await call<typeof ACCOUNT_ROUTES.setPublicName>(
        { method: 'PUT', path: '/api/account/public-name' },
        { body: parsed.output },
      );
      setSaved(view);
      setNickname(view.nickname ?? '');
      toast({ title: `You now appear as ${view.shownAs}`, variant: 'success' });
    } catch (err) {
      setError(messageOf(err, 'Your public name could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  if (current.error && !current.data) return <ErrorBox>We couldn't load your public name.</ErrorBox>;
  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label="Public name">
      <p>
        How you appear in the entries list, the winners and the live draw
        {shown ? (
          <>
            : now <strong data-testid="public-name-shown">{shown.shownAs}</strong>.
          </>
        ) : (
          '.'
        )}
      </p>
      <Choices>
        <legend>Show me as</legend>
        {PUBLIC_NAME_MODES.map((m) => (
          <label key={m}>
            <input
              type="radio"
              name="public-name-mode"
              value={m}
              checked={mode === m}
              onChange={() => {
                touched.current = true;
                setMode(m);
                setError(undefined);
              }}
            />
            {LABELS[m](shown?.initialName ?? 'Jo S.')}
          </label>
        ))}
      </Choices>
      {mode === 'nickname' && (
        <Field
          id="public-nickname"
          label="Nickname"
          value={nickname}
          maxLength={NICKNAME_MAX}
          autoComplete="off"
          placeholder={NICKNAME_RULES}
          onChange={(e) => {
            touched.current = true;
            setNickname(e.target.value);
          }}
        />
      )}
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <p>
        <Button type="submit" disabled={saving || !current.data}>
          {saving ? 'Saving...' : 'Save public name'}
        </Button>
      </p>
    </form>
  );
}
