import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { ALT_REQUIRED, GALLERY_TOO_LONG, IMAGE_NOT_FIRST } from '../../../contract/gallery';
import { put, signedInAdmin } from '../../support/admin';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { useTestServer } from '../../support/testServer';

// Prize galleries (docs/product.md#prize-galleries): `images` [{ url, alt }], at most 8, alt text
// required; `image` is the first picture's URL; both details carry the gallery; a copy keeps it.

const upload = (n: number) => `/uploads/${String(n).repeat(32).slice(0, 32)}-1600x1200.jpg`;
const pictures = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ url: upload(i + 1), alt: `Picture ${i + 1} of the car` }));

const valid = (overrides: Record<string, unknown> = {}) => ({
  title: 'Win a Red Roadster',
  description: 'A two-seat roadster',
  ticketPrice: 1.5,
  totalTickets: 300,
  endDate: new Date(Date.now() + 10 * 86_400_000).toISOString(),
  details: { category: 'Automotive' },
  ...overrides,
});

describe.skipIf(engineUnavailable())(`prize galleries on ${testEngine()}`, () => {
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/admin/competitions', valid(overrides));
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const detailOf = async (id: number) => {
    const [pub, adm] = await Promise.all([
      admin.get(`/api/competitions/${id}`),
      admin.get(`/api/admin/competitions/${id}`),
    ]);
    expect(pub.status).toBe(200);
    expect(adm.status).toBe(200);
    return { pub: pub.body, adm: adm.body };
  };
  const countCompetitions = async () => Number((await db('competitions').count({ n: '*' }).first())?.n ?? 0);

  it('stores the gallery in order, the image is its first picture, and both details carry it', async () => {
    const images = pictures(3);
    const id = await create({ images: images.map((p) => ({ ...p, alt: ` ${p.alt} ` })) });
    const { pub, adm } = await detailOf(id);
    for (const body of [pub, adm]) {
      expect(body.images).toEqual(images);
      expect(body.image).toBe(images[0]!.url);
    }
    const row = await db('competitions').where({ id }).first();
    expect(JSON.parse(row.images)).toEqual(images);
    expect(row.image).toBe(images[0]!.url);
    // The list shows the same first picture.
    const list = await admin.get('/api/competitions');
    expect(list.body.find((c: { id: number }) => c.id === id)).toMatchObject({ image: images[0]!.url });
  });

  it('shows a competition without a gallery as its one image, described by its title, or none', async () => {
    const withImage = await create({ image: upload(7) });
    expect((await detailOf(withImage)).pub.images).toEqual([{ url: upload(7), alt: 'Win a Red Roadster' }]);
    expect((await db('competitions').where({ id: withImage }).first()).images).toBeNull();
    const without = await create();
    const { pub, adm } = await detailOf(without);
    expect([pub.images, adm.images, pub.image]).toEqual([[], [], null]);
  });

  it('refuses a bad gallery with a 400 naming the field, and creates nothing', async () => {
    const before = await countCompetitions();
    const cases: Array<[unknown, string, string]> = [
      [pictures(9), 'images', GALLERY_TOO_LONG],
      [[{ url: upload(1) }], 'images.0.alt', ALT_REQUIRED],
      [[{ url: upload(1), alt: '   ' }], 'images.0.alt', ALT_REQUIRED],
      [
        [...pictures(1), { url: 'javascript:alert(1)', alt: 'x' }],
        'images.1.url',
        'Each picture must be an uploaded image URL',
      ],
      ['a.png', 'images', 'images must be a list of pictures'],
    ];
    for (const [images, field, message] of cases) {
      const res = await admin.post('/api/admin/competitions', valid({ images }));
      expect(res.status, JSON.stringify(images)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details.fields[field]).toBe(message);
    }
    // `image` beside a gallery must be its first picture.
    const clash = await admin.post(
      '/api/admin/competitions',
      valid({ images: pictures(2), image: upload(5) }),
    );
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({
      message: IMAGE_NOT_FIRST,
      details: { fields: { image: IMAGE_NOT_FIRST } },
    });
    expect(await countCompetitions()).toBe(before);
  });

  it('an edit replaces, reorders or empties the gallery; a refused edit changes nothing', async () => {
    const id = await create({ images: pictures(3) });
    const rowBefore = await db('competitions').where({ id }).first();

    const bad = await put(admin, `/api/admin/competitions/${id}`, {
      title: 'Renamed',
      images: [...pictures(2), { url: upload(9), alt: '' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields['images.2.alt']).toBe(ALT_REQUIRED);
    const clash = await put(admin, `/api/admin/competitions/${id}`, {
      images: pictures(2),
      image: upload(3),
    });
    expect(clash.status).toBe(400);
    expect(await db('competitions').where({ id }).first()).toEqual(rowBefore);

    const reordered = [pictures(3)[2]!, pictures(3)[0]!];
    const res = await put(admin, `/api/admin/competitions/${id}`, { images: reordered });
    expect(res.status, res.text).toBe(200);
    expect((await detailOf(id)).pub).toMatchObject({ images: reordered, image: reordered[0]!.url });

    const emptied = await put(admin, `/api/admin/competitions/${id}`, { images: [] });
    expect(emptied.status).toBe(200);
    expect((await detailOf(id)).adm).toMatchObject({ images: [], image: null });
  });

  it('`image` alone (a client that knows one picture) replaces the first picture, or removes them all', async () => {
    const id = await create({ images: pictures(3) });
    // Sent unchanged, as a client resending the whole form does: nothing changes.
    const same = await put(admin, `/api/admin/competitions/${id}`, { image: upload(1), title: 'Roadster' });
    expect(same.status).toBe(200);
    expect((await detailOf(id)).pub.images).toEqual(pictures(3));

    const replaced = await put(admin, `/api/admin/competitions/${id}`, { image: upload(8) });
    expect(replaced.status).toBe(200);
    expect((await detailOf(id)).pub).toMatchObject({
      image: upload(8),
      images: [{ url: upload(8), alt: 'Roadster' }, ...pictures(3).slice(1)],
    });

    const removed = await put(admin, `/api/admin/competitions/${id}`, { image: null });
    expect(removed.status).toBe(200);
    expect((await detailOf(id)).pub).toMatchObject({ image: null, images: [] });
  });

  it('a duplicate keeps the gallery', async () => {
    const id = await create({ images: pictures(4) });
    const res = await admin.post(`/api/admin/competitions/${id}/duplicate`);
    expect(res.status).toBe(201);
    const copy = await admin.get(`/api/admin/competitions/${res.body.id}`);
    expect(copy.body).toMatchObject({ status: 'draft', image: upload(1), images: pictures(4) });
  });
});
