import { describe, expect, it } from 'vitest';
import { ADMIN_PAGE_PATHS } from '../../contract/routes';
import { ADMIN_NAV, currentSection } from '../../web/components/admin/AdminNav';

// The back office's navigation marks the section of every admin screen, details included.

describe('admin navigation', () => {
  it('marks the section a path belongs to', () => {
    expect(currentSection('/admin')).toBe('/admin');
    expect(currentSection('/admin/orders/12')).toBe('/admin/orders');
    expect(currentSection('/admin/users/7')).toBe('/admin/users');
    expect(currentSection('/admin/competitions/3')).toBe('/admin/competitions');
    expect(currentSection('/direct-site-settings')).toBe('/admin/site-settings');
    expect(currentSection('/direct-upload-test')).toBe('/admin/site-settings');
  });

  it('links only to admin screens of the route table, and reaches a section for each', () => {
    for (const n of ADMIN_NAV) expect(ADMIN_PAGE_PATHS).toContain(n.href);
    for (const path of ADMIN_PAGE_PATHS) {
      const section = currentSection(path.replace(':id', '1'));
      expect(
        ADMIN_NAV.map((n) => n.href),
        path,
      ).toContain(section);
    }
  });
});
