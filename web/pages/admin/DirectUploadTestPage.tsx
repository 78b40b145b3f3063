import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { AdminHeader, Control, Tabs } from '../../components/admin/AdminUi';
import { IMAGE_ACCEPT, INVALID_TYPE_HINT, isAcceptedImage } from '../../components/admin/imageFiles';
import { MissingImageUrlError, uploadForUrl } from '../../components/admin/uploads';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { Button } from '../../components/ui/Button';
import { Card, Lead, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';

const Uploaded = styled.div`
  margin-top: ${({ theme }) => theme.space.md};
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  code { overflow-wrap: anywhere; }
  img { max-width: min(100%, 320px); border-radius: ${({ theme }) => theme.radii.md}; }
`;

type Kind = 'general' | 'competition';
const PATHS: Record<Kind, string> = {
  general: ADMIN_CATALOGUE_ROUTES.directUpload.path,
  competition: ADMIN_CATALOGUE_ROUTES.directUploadCompetitionImage.path,
};

function Uploader({ kind }: { kind: Kind }) {
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState<string>();
  const { busy, run } = useAdminMutation();

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
    if (!isAcceptedImage(file)) {
      toast({ title: 'Invalid file type', description: INVALID_TYPE_HINT, variant: 'destructive' });
      return;
    }
    const stored = await run(
      () =>
        uploadForUrl(PATHS[kind], file).catch((err: unknown) => {
          if (err instanceof MissingImageUrlError)
            throw new Error('Upload succeeded but no image URL returned');
          throw err;
        }),
      {
        success: (imageUrl) => ({ title: 'Image uploaded', description: imageUrl }),
        failureTitle: 'Upload failed',
        fallback: 'Failed to upload image',
      },
    );
    if (stored !== undefined) setUrl(stored);
  };

  const id = `direct-file-${kind}`;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Control>
        <label htmlFor={id}>{kind === 'general' ? 'Image' : 'Competition image'}</label>
        <input
          id={id}
          type="file"
          accept={IMAGE_ACCEPT}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </Control>
      <p>
        <Button type="submit" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload'}
        </Button>
      </p>
      {url && (
        <Uploaded data-testid="uploaded-url">
          <strong>Uploaded image URL</strong>
          <code>{url}</code>
          <img src={url} alt="Uploaded" />
        </Uploaded>
      )}
    </form>
  );
}

/** /direct-upload-test: try the direct upload endpoints (admin-only here) and see the stored URL. */
export default function DirectUploadTestPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Try an Image Upload | ${siteName}`;
  }, [siteName]);
  const [tab, setTab] = useState<Kind>('general');
  return (
    <PageContainer>
      <AdminHeader title="Try an Image Upload" />
      <Lead>Upload an image and see the address it is stored at. For admins only, like every upload.</Lead>
      <Card>
        <Tabs
          label="Upload type"
          tabs={[
            { key: 'general', label: 'General Image Upload' },
            { key: 'competition', label: 'Competition Image Upload' },
          ]}
          value={tab}
          onChange={setTab}
        />
        <Uploader key={tab} kind={tab} />
      </Card>
    </PageContainer>
  );
}
