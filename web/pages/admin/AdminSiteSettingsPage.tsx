import { useEffect } from 'react';
import { Link } from 'wouter';
import { SETTING_CARDS } from '../../../contract/siteSettings';
import { AdminHeader } from '../../components/admin/AdminUi';
import { HeroImageSettings } from '../../components/admin/HeroImageSettings';
import { SiteSettingCard } from '../../components/admin/SiteSettingCard';
import { ButtonLink } from '../../components/ui/Button';
import { Lead, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

/**
 * /admin/site-settings and /direct-site-settings: the same hero image screen, both admin-only. The
 * routes keep their names; the screens say plainly what they do (issue 39 §10).
 */
export function SiteSettingsScreen({ direct }: { direct: boolean }) {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `${direct ? 'Hero Image, Second Upload Route' : 'Site Settings'} | ${siteName}`;
  }, [direct, siteName]);
  return (
    <PageContainer>
      <AdminHeader title={direct ? 'Hero Image, Second Upload Route' : 'Site Settings'}>
        <Link href={direct ? '/direct-upload-test' : '/direct-site-settings'} asChild>
          <ButtonLink $variant="ghost">
            {direct ? 'Try an Image Upload' : 'Hero Image, Second Upload Route'}
          </ButtonLink>
        </Link>
      </AdminHeader>
      {direct && (
        <Lead>
          The hero image through the second upload route (kept at /direct-site-settings). Like every upload it
          is for admins only.
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
