import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import { call } from '../../api/call';
import { toast } from '../../stores/toast';
import { media } from '../../theme/theme';
import { Button } from '../ui/Button';
import { ErrorBox } from '../ui/Form';
import { Card } from '../ui/Page';
import { Spinner } from '../ui/Spinner';
import { Control, Muted, Tabs } from './AdminUi';
import { IMAGE_ACCEPT, INVALID_TYPE_HINT, isAcceptedImage } from './imageFiles';
import { uploadForUrl } from './uploads';
import { useAdminRoute } from './useAdminData';
import { useAdminMutation } from './useAdminMutation';

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1.2fr 1fr; align-items: start; }
  h2 { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.lg}; }
`;

const Hero = styled.img`
  width: 100%;
  max-height: 320px;
  object-fit: cover;
  border-radius: ${({ theme }) => theme.radii.md};
  margin-bottom: ${({ theme }) => theme.space.sm};
`;

type Mode = 'standard' | 'direct';

/** An upload form: `direct` accepts the five image types, `standard` any image/* (spec section 5). */
function UploadForm({ mode, onUploaded }: { mode: Mode; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const { busy, run } = useAdminMutation();

  const choose = (f: File | undefined) => {
    if (f && mode === 'direct' && !isAcceptedImage(f)) {
      toast({ title: 'Invalid file type', description: INVALID_TYPE_HINT, variant: 'destructive' });
      setFile(null);
      return;
    }
    if (f && mode === 'standard' && !f.type.startsWith('image/')) {
      toast({
        title: 'Invalid file type',
        description: 'Please select an image file',
        variant: 'destructive',
      });
      setFile(null);
      return;
    }
    setFile(f ?? null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      toast({
        title: 'No image selected',
        description: 'Please select an image file first',
        variant: 'destructive',
      });
      return;
    }
    const form = e.target as HTMLFormElement;
    const stored = await run(
      () =>
        uploadForUrl(
          (mode === 'direct'
            ? ADMIN_CATALOGUE_ROUTES.directUploadHeroImage
            : ADMIN_CATALOGUE_ROUTES.uploadHeroImage
          ).path,
          file,
        ),
      {
        success: () => ({ title: 'Hero image updated', description: 'The home page shows the new image.' }),
        failureTitle: 'Upload failed',
        fallback: 'Failed to upload image',
      },
    );
    if (stored === undefined) return;
    setFile(null);
    form.reset();
    onUploaded();
  };

  const id = `hero-file-${mode}`;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Control>
        <label htmlFor={id}>New hero image</label>
        <input
          id={id}
          type="file"
          accept={mode === 'direct' ? IMAGE_ACCEPT : 'image/*'}
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <small className="hint">
          {mode === 'direct'
            ? 'PNG, JPEG, JPG, GIF or WEBP, up to 5 MB. Sent to the second upload route (admins only).'
            : 'Any image up to 5 MB.'}
        </small>
      </Control>
      <p>
        <Button type="submit" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload Hero Image'}
        </Button>
      </p>
    </form>
  );
}

/** The current hero image with reset, and the Standard / Direct upload tabs. */
export function HeroImageSettings() {
  const hero = useAdminRoute(CATALOGUE_ROUTES.heroImage, {});
  const [tab, setTab] = useState<Mode>('standard');
  const { busy, run } = useAdminMutation();

  const reset = async () => {
    const done = await run(() => call(ADMIN_CATALOGUE_ROUTES.resetUploadedHeroImage), {
      success: () => ({ title: 'Hero image deleted (reset to default)' }),
      failureTitle: 'Error',
      fallback: 'Failed to delete hero image',
    });
    if (done !== undefined) hero.reload();
  };

  return (
    <Layout>
      <Card>
        <h2>Current hero image</h2>
        {hero.error && !hero.data ? (
          <ErrorBox role="alert">Error loading hero image</ErrorBox>
        ) : !hero.data ? (
          <Spinner label="Loading hero image" />
        ) : (
          <>
            <Hero src={hero.data.imageUrl} alt="Current hero" data-testid="hero-preview" />
            <Muted data-testid="hero-kind">
              {hero.data.isDefault ? 'The default image is in use.' : 'A custom image is in use.'}
            </Muted>
            {!hero.data.isDefault && (
              <p>
                <Button type="button" $variant="danger" onClick={() => void reset()} disabled={busy}>
                  Reset to Default
                </Button>
              </p>
            )}
          </>
        )}
      </Card>
      <Card>
        <Tabs
          label="Upload method"
          tabs={[
            { key: 'standard', label: 'Upload any image' },
            { key: 'direct', label: 'Upload PNG, JPEG, GIF or WEBP' },
          ]}
          value={tab}
          onChange={setTab}
        />
        <UploadForm key={tab} mode={tab} onUploaded={hero.reload} />
      </Card>
    </Layout>
  );
}
