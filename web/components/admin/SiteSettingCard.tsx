import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import type { AnyCardSetting, SettingControl } from '../../../contract/siteSettings';
import { apiSend } from '../../api/client';
import { Button } from '../ui/Button';
import { Field, Form, TextAreaField } from '../ui/Form';
import { Card } from '../ui/Page';
import { Muted } from './AdminUi';
import { useAdminData } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

type View = Record<string, unknown>;

/** A saved value as its input shows it: empty while unset, pounds with their pence, a list as text. */
function shown(value: unknown, control: SettingControl): string {
  if (value === null || value === undefined) return '';
  if (control.toText) return control.toText(value as never);
  if (typeof value === 'number' && control.decimals !== undefined) return value.toFixed(control.decimals);
  return String(value);
}

/** One input of the card, with the attributes its declaration gives it. */
function SettingInput({
  name,
  control,
  value,
  onChange,
  disabled,
}: {
  name: string;
  control: SettingControl;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const { label, kind, id = name, min, max, step, inputMode, maxLength, rows } = control;
  const common = {
    id,
    label,
    maxLength,
    value,
    disabled,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value),
  };
  if (kind === 'textarea') return <TextAreaField {...common} rows={rows} />;
  const type = kind === 'number' ? 'number' : undefined;
  return <Field {...common} type={type} min={min} max={max} step={step} inputMode={inputMode} />;
}

/**
 * The card that edits one site setting (contract/siteSettings.ts): loads it from its path, shows
 * one input per field of its PUT body, saves them all together with a toast.
 */
export function SiteSettingCard({ setting }: { setting: AnyCardSetting }) {
  const { path, card } = setting;
  const controls = Object.entries(card.controls);
  const saved = useAdminData<View>(path);
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(controls.map(([name]) => [name, ''])),
  );
  const { busy, run } = useAdminMutation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the declaration is a module constant.
  useEffect(() => {
    const data = saved.data;
    if (data)
      setTexts(Object.fromEntries(controls.map(([name, control]) => [name, shown(data[name], control)])));
  }, [saved.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = Object.fromEntries(
      controls.map(([name, control]) => [
        name,
        control.fromText
          ? control.fromText(texts[name] ?? '')
          : control.kind === 'number'
            ? Number(texts[name])
            : texts[name],
      ]),
    );
    const done = await run(() => apiSend<View>('PUT', path, body), {
      success: (answer) => card.saved(answer),
      failureTitle: card.failureTitle,
      fallback: 'Please try again.',
    });
    if (done) saved.reload();
  };

  return (
    <Card data-testid={card.testId}>
      <h2>{card.title}</h2>
      <Muted>{card.intro}</Muted>
      <Form onSubmit={submit}>
        {controls.map(([name, control]) => (
          <SettingInput
            key={name}
            name={name}
            control={control}
            value={texts[name] ?? ''}
            onChange={(value) => setTexts((current) => ({ ...current, [name]: value }))}
            disabled={!saved.data}
          />
        ))}
        <Button type="submit" disabled={busy || !saved.data}>
          {busy ? 'Saving...' : card.saveLabel}
        </Button>
      </Form>
    </Card>
  );
}
