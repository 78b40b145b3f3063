import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_PAGE_PATHS, CUSTOMER_PAGE_PATHS, matchPagePath } from '../../contract/routes';

// The route table the client renders and the server answers 404 from (#16.8).

describe('matchPagePath', () => {
  it('matches pages as wouter does: parameters, one trailing slash, any letter case', () => {
    expect(matchPagePath('/')).toEqual({ path: '/', params: {} });
    expect(matchPagePath('/competitions/12')).toEqual({ path: '/competitions/:id', params: { id: '12' } });
    expect(matchPagePath('/competitions/abc')).toEqual({ path: '/competitions/:id', params: { id: 'abc' } });
    expect(matchPagePath('/competitions/')?.path).toBe('/competitions');
    expect(matchPagePath('/About')?.path).toBe('/about');
    expect(matchPagePath('/orders/5/receipt')).toEqual({
      path: '/orders/:orderId/receipt',
      params: { orderId: '5' },
    });
    expect(matchPagePath('/admin/orders/9')?.path).toBe('/admin/orders/:id');
  });

  it('knows no other path', () => {
    for (const p of ['/no-such-page', '/competitions/1/2', '/admin/x', '/orders/5', '//', '/about//']) {
      expect(matchPagePath(p), p).toBeNull();
    }
  });

  it('is the table web/App.tsx renders: every page of it and nothing else', () => {
    const app = fs.readFileSync(path.resolve(__dirname, '../../web/App.tsx'), 'utf8');
    const admin = fs.readFileSync(path.resolve(__dirname, '../../web/pages/admin/adminRoutes.tsx'), 'utf8');
    const keys = (text: string) => [...text.matchAll(/^ {2}'(\/[^']*)': /gm)].map((m) => m[1]);
    expect(keys(app).sort()).toEqual([...CUSTOMER_PAGE_PATHS].sort());
    expect(keys(admin).sort()).toEqual([...ADMIN_PAGE_PATHS].sort());
    // No page is declared outside the table.
    expect(app).not.toMatch(/<Route path="/);
  });
});
