import { useState } from 'react';
import styled from 'styled-components';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Control } from './AdminUi';
import { IMAGE_ACCEPT, INVALID_TYPE_HINT, isAcceptedImage } from './imageFiles';
import { uploadForUrl } from './uploads';

const Preview = styled.img`
  width: 96px;
  height: 72px;
  object-fit: cover;
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;

/**
 * One main prize's picture. Unlike the competition's image it is uploaded as soon as it is chosen
 * (a list of pending files per prize would have to survive adding and removing prizes); the row
 * keeps the stored URL, sent with the prizes when the form is saved.
 */
export function PrizePictureField({
  id,
  name,
  image,
  error,
  onChange,
}: {
  id: string;
  /** '1st prize' */
  name: string;
  image: string | null;
  error: string | undefined;
  onChange: (image: string | null) => void;
}) {
  const [uploading, setUploading] = useState(false);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!isAcceptedImage(file)) {
      toast({ title: 'Invalid file type', description: INVALID_TYPE_HINT, variant: 'destructive' });
      return;
    }
    setUploading(true);
    try {
      onChange(await uploadForUrl(ADMIN_CATALOGUE_ROUTES.uploadImage.path, file));
    } catch (err) {
      toast({
        title: 'Upload failed',
        description: messageOf(err, 'Failed to upload image'),
        variant: 'destructive',
      });
    } finally {
      setUploading(false);
    }
  };
  return (
    <Control>
      <label htmlFor={id}>{name}: picture (optional)</label>
      <input
        id={id}
        type="file"
        accept={IMAGE_ACCEPT}
        disabled={uploading}
        aria-invalid={error ? true : undefined}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      <small className="hint">{uploading ? 'Uploading…' : 'Uploaded as soon as you choose it.'}</small>
      {error && <small>{error}</small>}
      {image && (
        <div>
          <Preview src={image} alt={`${name} picture preview`} />
          <Button type="button" $variant="ghost" onClick={() => onChange(null)}>
            Remove the {name} picture
          </Button>
        </div>
      )}
    </Control>
  );
}
