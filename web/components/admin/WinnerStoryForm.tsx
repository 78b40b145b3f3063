import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { DRAW_ROUTES } from '../../../contract/apiDraws';
import { formatDateTime } from '../../../contract/londonTime';
import type { AdminPrizeWinner } from '../../../contract/prizes';
import {
  PUBLICITY_CONSENT_LABEL,
  STORY_QUOTE_MAX,
  WinnerStoryUpdateSchema,
} from '../../../contract/winnerStories';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Checkbox, ErrorBox } from '../ui/Form';
import { Control } from './AdminUi';
import { IMAGE_ACCEPT, INVALID_TYPE_HINT, isAcceptedImage } from './imageFiles';
import { uploadForUrl } from './uploads';

const Story = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: ${({ theme }) => theme.space.md};
  padding-top: ${({ theme }) => theme.space.md};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  h3, h4 { margin: 0; }
  small.hint { color: ${({ theme }) => theme.colors.textMuted}; }
`;

const Photo = styled.img`
  width: 120px;
  height: 90px;
  object-fit: cover;
  border-radius: ${({ theme }) => theme.radii.md};
`;

const STORY_HEADING = 'Winner story (shown on /winners)';

/** The winner's photo: uploaded as soon as it is chosen, as a prize picture is, with a preview. */
function StoryPhoto({
  id,
  label,
  photo,
  busy,
  onBusy,
  onChange,
  onError,
}: {
  id: string;
  label: string;
  photo: string | null;
  busy: boolean;
  onBusy: (busy: boolean) => void;
  onChange: (photo: string | null) => void;
  onError: (message: string | undefined) => void;
}) {
  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!isAcceptedImage(file)) {
      onError(INVALID_TYPE_HINT);
      return;
    }
    onBusy(true);
    try {
      onChange(await uploadForUrl(ADMIN_CATALOGUE_ROUTES.uploadImage.path, file));
      onError(undefined);
    } catch (err) {
      onError(messageOf(err, 'Failed to upload image'));
    } finally {
      onBusy(false);
    }
  };
  return (
    <>
      <Control>
        <label htmlFor={id}>Winner's photo</label>
        <input
          id={id}
          type="file"
          accept={IMAGE_ACCEPT}
          disabled={busy}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </Control>
      {photo && (
        <div>
          <Photo src={photo} alt={`${label}: winner's photo`} />
          <Button type="button" $variant="ghost" onClick={() => onChange(null)}>
            Remove the photo
          </Button>
        </div>
      )}
    </>
  );
}

/**
 * A prize's winner story on the admin's winner panel (docs/product.md#public-names-and-winner-stories):
 * a photo (uploaded as soon as it is chosen, as a prize picture is), a quote and the publicity
 * tick. Without the tick nothing is saved (the server says 400 too); unticking removes the story.
 */
export function WinnerStoryForm({
  competitionId,
  prize,
  label,
  level = 3,
  onChanged,
}: {
  competitionId: number;
  prize: Pick<AdminPrizeWinner, 'position' | 'story'>;
  /** '1st prize', or 'Winner' for a single prize. */
  label: string;
  /** The heading's level under the panel's (h3 under the card's h2, h4 under a further prize's h3). */
  level?: 3 | 4;
  onChanged: () => void;
}) {
  const story = prize.story ?? null;
  const [photo, setPhoto] = useState<string | null>(story?.photo ?? null);
  const [quote, setQuote] = useState(story?.quote ?? '');
  const [consent, setConsent] = useState(Boolean(story?.consentAt));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setPhoto(story?.photo ?? null);
    setQuote(story?.quote ?? '');
    setConsent(Boolean(story?.consentAt));
  }, [story?.photo, story?.quote, story?.consentAt]);
  const id = `story-${prize.position}`;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(WinnerStoryUpdateSchema, { photo, quote, consent });
    if (!parsed.success) {
      setError(parsed.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await call(DRAW_ROUTES.updateWinnerStory, {
        params: { id: competitionId, position: prize.position },
        body: parsed.output,
      });
      toast({ title: consent ? 'Winner story saved' : 'Winner story removed', variant: 'success' });
      onChanged();
    } catch (err) {
      setError(messageOf(err, 'The story could not be saved. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Story onSubmit={(e) => void save(e)} noValidate aria-label={`${label}: winner story`}>
      {level === 3 ? <h3>{STORY_HEADING}</h3> : <h4>{STORY_HEADING}</h4>}
      <StoryPhoto
        id={`${id}-photo`}
        label={label}
        photo={photo}
        busy={busy}
        onBusy={setBusy}
        onChange={setPhoto}
        onError={setError}
      />
      <Control>
        <label htmlFor={`${id}-quote`}>Winner's quote</label>
        <textarea
          id={`${id}-quote`}
          value={quote}
          maxLength={STORY_QUOTE_MAX}
          onChange={(e) => setQuote(e.target.value)}
        />
        <small className="hint">
          {quote.length} / {STORY_QUOTE_MAX}
        </small>
      </Control>
      <Checkbox
        id={`${id}-consent`}
        checked={consent}
        onChange={setConsent}
        hint={
          story?.consentAt
            ? `Ticked by ${story.consentBy ?? 'an admin'} on ${formatDateTime(story.consentAt)}`
            : 'Tick only once the winner has agreed: nothing is published without it.'
        }
      >
        {PUBLICITY_CONSENT_LABEL}
      </Checkbox>
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <p>
        <Button type="submit" $variant="secondary" disabled={busy}>
          {busy ? 'Saving...' : 'Save story'}
        </Button>
      </p>
    </Story>
  );
}
