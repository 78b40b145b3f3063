import { useEffect } from 'react';
import { Link } from 'wouter';
import { SETTING_CARDS } from '../../../contract/siteSettings';
import { AdminHeader } from '../../components/admin/AdminUi';
import { HeroImageSettings } from '../../components/admin/HeroImageSettings';
import { SiteSettingCard } from '../../components/admin/SiteSettingCard';
import { ButtonLink } from '../../components/ui/Button';
import { Lead, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

/** /admin/site-settings and /direct-site-settings: the same hero image screen, both admin-only. */
export function SiteSettingsScreen({ direct }: { direct: boolean }) {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `${direct ? 'Direct Site Settings' : 'Site Settings'} | ${siteName}`;
  }, [direct, siteName]);
  return (
    <PageContainer>
      <AdminHeader title={direct ? 'Direct Site Settings' : 'Site Settings'}>
        <Link href={direct ? '/direct-upload-test' : '/direct-site-settings'} asChild>
          <ButtonLink $variant="ghost">{direct ? 'Direct Upload Test' : 'Direct Site Settings'}</ButtonLink>
        </Link>
      </AdminHeader>
      {direct && (
        <Lead>
          Hero image management through the direct upload endpoints. Unlike the original design these do not
          bypass authentication: they are for admins only, like every upload.
        </Lead>
      )}
      <HeroImageSettings />
      {!direct && SETTING_CARDS.map((setting) => <SiteSettingCard key={setting.path} setting={setting} />)}
    </PageContainer>
  );
}

export default function AdminSiteSettingsPage() {
  return <SiteSettingsScreen direct={false} />;
}

export function DirectSiteSettingsPage() {
  return <SiteSettingsScreen direct />;
}
