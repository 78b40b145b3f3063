import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { type GalleryImage, MAX_ALT_LENGTH, MAX_GALLERY_IMAGES } from '../../../contract/gallery';
import { responsiveSource, variantUrl, variantWidths } from '../../../contract/images';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Control, Muted } from './AdminUi';
import { IMAGE_ACCEPT, INVALID_TYPE_HINT, isAcceptedImage } from './imageFiles';
import { uploadForUrl } from './uploads';

const Row = styled.fieldset`
  grid-template-columns: 96px 1fr;
  align-items: start;
`;

const Preview = styled.img`
  width: 96px;
  height: 72px;
  object-fit: cover;
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;

const Actions = styled.div`
  grid-column: 1 / -1;
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
`;

/** A small picture for the preview: an upload's narrowest variant, else the picture itself. */
function thumbnailOf(url: string): string {
  const source = responsiveSource(url);
  return source ? variantUrl(source.stem, variantWidths(source.width)[0]!, 'webp') : url;
}

/** The list with the picture at `from` moved to `to`. */
const moved = (list: GalleryImage[], from: number, to: number) => {
  const next = [...list];
  const [picture] = next.splice(from, 1);
  next.splice(to, 0, picture!);
  return next;
};

/** One picture: its preview, its alt text, and Up, Down and Remove. */
function PictureRow({
  image,
  index: i,
  count,
  errors,
  onAlt,
  onMove,
  onRemove,
}: {
  image: GalleryImage;
  index: number;
  count: number;
  errors: Record<string, string>;
  onAlt: (alt: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const name = `Picture ${i + 1}`;
  const altId = `c-picture-alt-${i + 1}`;
  const altError = errors[`images.${i}.alt`];
  const urlError = errors[`images.${i}.url`];
  return (
    <Row aria-label={name}>
      <Preview src={thumbnailOf(image.url)} alt="" />
      <Control>
        <label htmlFor={altId}>{name}: alt text</label>
        <input
          id={altId}
          value={image.alt}
          maxLength={MAX_ALT_LENGTH}
          aria-invalid={altError ? true : undefined}
          aria-describedby={altError ? `${altId}-error` : undefined}
          onChange={(e) => onAlt(e.target.value)}
        />
        {altError && <small id={`${altId}-error`}>{altError}</small>}
        {urlError && <small>{urlError}</small>}
      </Control>
      <Actions>
        <Button
          type="button"
          $variant="ghost"
          id={`c-picture-up-${i + 1}`}
          disabled={i === 0}
          aria-label={`Move picture ${i + 1} up`}
          onClick={() => onMove(i - 1)}
        >
          ↑ Up
        </Button>
        <Button
          type="button"
          $variant="ghost"
          id={`c-picture-down-${i + 1}`}
          disabled={i === count - 1}
          aria-label={`Move picture ${i + 1} down`}
          onClick={() => onMove(i + 1)}
        >
          ↓ Down
        </Button>
        <Button
          type="button"
          $variant="ghost"
          id={`c-picture-remove-${i + 1}`}
          aria-label={`Remove picture ${i + 1}`}
          onClick={onRemove}
        >
          Remove
        </Button>
      </Actions>
    </Row>
  );
}

/**
 * The competition's pictures in the admin form (docs/product.md#prize-galleries): up to 8, in the
 * order the page shows them (the first is the competition's picture everywhere), each with its
 * alt text. A picture is uploaded as soon as it is chosen; the list is saved with the form.
 */
export function GalleryFields({
  images,
  errors,
  onChange,
}: {
  images: GalleryImage[];
  /** Keyed 'images' and 'images.<index>.<field>' (formFieldOf). */
  errors: Record<string, string>;
  /** Given the change to make to the list as it is then (an upload ends after other edits). */
  onChange: (update: (images: GalleryImage[]) => GalleryImage[]) => void;
}) {
  const [uploading, setUploading] = useState(false);
  // After a move or a removal the focus follows the picture (or stays in the list), not the
  // button that is now another picture's or gone.
  const [focusNext, setFocusNext] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the list has re-rendered
  useEffect(() => {
    if (!focusNext) return;
    document.getElementById(focusNext)?.focus();
    setFocusNext(null);
  }, [focusNext, images]);
  const move = (from: number, to: number) => {
    onChange((list) => moved(list, from, to));
    const direction = to === 0 ? 'down' : to === images.length - 1 ? 'up' : to < from ? 'up' : 'down';
    setFocusNext(`c-picture-${direction}-${to + 1}`);
  };
  const remove = (i: number) => {
    onChange((list) => list.filter((_, j) => j !== i));
    const left = images.length - 1;
    setFocusNext(left === 0 ? 'c-picture-add' : `c-picture-remove-${Math.min(i, left - 1) + 1}`);
  };
  const add = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (!isAcceptedImage(file)) {
      toast({ title: 'Invalid file type', description: INVALID_TYPE_HINT, variant: 'destructive' });
      return;
    }
    setUploading(true);
    try {
      const url = await uploadForUrl(ADMIN_CATALOGUE_ROUTES.uploadImage.path, file);
      onChange((list) => [...list, { url, alt: '' }]);
    } catch (err) {
      const description = messageOf(err, 'Failed to upload image');
      toast({ title: 'Upload failed', description, variant: 'destructive' });
    } finally {
      setUploading(false);
    }
  };
  return (
    <fieldset data-testid="gallery-fields">
      <legend>Pictures</legend>
      <Muted>
        Up to {MAX_GALLERY_IMAGES}, in the order the page shows them: the first is the competition's picture
        on cards, in the cart and in link previews. Alt text says what each one shows, for people who cannot
        see it.
      </Muted>
      {errors.images && <small role="alert">{errors.images}</small>}
      {images.map((image, i) => (
        <PictureRow
          // biome-ignore lint/suspicious/noArrayIndexKey: a picture's place is its identity while edited
          key={i}
          image={image}
          index={i}
          count={images.length}
          errors={errors}
          onAlt={(alt) => onChange((list) => list.map((p, j) => (j === i ? { ...p, alt } : p)))}
          onMove={(to) => move(i, to)}
          onRemove={() => remove(i)}
        />
      ))}
      {images.length < MAX_GALLERY_IMAGES && (
        <Control>
          <label htmlFor="c-picture-add">Add a picture</label>
          <input
            id="c-picture-add"
            type="file"
            accept={IMAGE_ACCEPT}
            disabled={uploading}
            onChange={(e) => void add(e.currentTarget)}
          />
          <small className="hint">
            {uploading
              ? 'Uploading…'
              : 'PNG, JPEG, GIF or WEBP, up to 5 MB; uploaded as soon as you choose it.'}
          </small>
        </Control>
      )}
    </fieldset>
  );
}
