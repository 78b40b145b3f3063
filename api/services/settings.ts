import type { Knex } from 'knex';
import type { HeroImage } from '../../contract/competitions';
import { SiteSetting } from '../../db/models';

export const DEFAULT_HERO_IMAGE = '/images/hero-default.svg';
export const HERO_IMAGE_KEY = 'hero_image';

export async function getSetting(db: Knex, key: string): Promise<string | undefined> {
  const row = await SiteSetting.query(db).findOne({ key });
  return row?.value;
}

/** The admin's hero image, or the bundled default. */
export async function getHeroImage(db: Knex): Promise<HeroImage> {
  const custom = await getSetting(db, HERO_IMAGE_KEY);
  return custom ? { imageUrl: custom, isDefault: false } : { imageUrl: DEFAULT_HERO_IMAGE, isDefault: true };
}
