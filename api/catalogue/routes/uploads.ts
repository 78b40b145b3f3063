import fs from 'node:fs';
import path from 'node:path';
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { HeroImageSetSchema, type TicketCapSetting, TicketCapSettingSchema } from '../../../contract/admin';
import { type ComplianceSettings, ComplianceSettingsSchema } from '../../../contract/complaints';
import { penceToPounds, poundsToPence } from '../../../contract/money';
import { PostalAddressSettingSchema } from '../../../contract/postal';
import { OperatorSettingsSchema } from '../../../contract/receipts';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { badRequest } from '../../platform/errors';
import { defaultCap } from '../../tickets/holdChecks';
import { imageUpload } from '../imageUpload';
import {
  getComplianceSettings,
  getOperatorSettings,
  getPostalAddress,
  resetHeroImage,
  setComplianceSettings,
  setDefaultTicketCap,
  setHeroImage,
  setOperatorSettings,
  setPostalAddress,
} from '../settings';
import { UPLOADS_URL_PREFIX, uploadsDirOf } from '../uploads';

// Image uploads and the hero image setting (docs/product.md#admin-site-settings).
// The spec's "Direct Upload (Auth Bypass)" endpoints keep their paths but not the bypass: every
// one is the same admin-only upload.

/** The stored image's URL, as every upload answers (`success` for the hero endpoints' readers). */
const answer = (ctx: Context) => {
  ctx.status = 201;
  ctx.body = { success: true, imageUrl: ctx.state.uploadedImageUrl! };
};

export function registerUploadRoutes(router: Router, { db, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });
  // The guard runs first: nobody else can make the server read an upload body.
  const upload = imageUpload(config.dataDir);

  for (const path of [
    '/api/admin/upload-image',
    '/api/direct-upload',
    '/api/direct-upload/competition-image',
  ]) {
    router.post(path, admin, upload, answer);
  }

  // The site's default per-person cap (docs/security.md), on the same settings screen.
  router.get('/api/admin/settings/ticket-cap', admin, async (ctx) => {
    ctx.body = { defaultMaxTicketsPerUser: await defaultCap(db) } satisfies TicketCapSetting;
  });
  router.put('/api/admin/settings/ticket-cap', admin, async (ctx) => {
    const { defaultMaxTicketsPerUser } = parse(TicketCapSettingSchema, ctx.request.body);
    ctx.body = await setDefaultTicketCap(db, actorOf(ctx), defaultMaxTicketsPerUser);
  });

  // The operator's name and address, printed on receipts (same settings screen).
  router.get('/api/admin/settings/operator', admin, async (ctx) => {
    ctx.body = await getOperatorSettings(db);
  });
  router.put('/api/admin/settings/operator', admin, async (ctx) => {
    ctx.body = await setOperatorSettings(db, actorOf(ctx), parse(OperatorSettingsSchema, ctx.request.body));
  });

  // Where free postal entries are sent (same settings screen; public through /api/entry-terms).
  router.get('/api/admin/settings/postal-address', admin, async (ctx) => {
    ctx.body = { postalAddress: await getPostalAddress(db) };
  });
  router.put('/api/admin/settings/postal-address', admin, async (ctx) => {
    const { postalAddress } = parse(PostalAddressSettingSchema, ctx.request.body);
    ctx.body = await setPostalAddress(db, actorOf(ctx), postalAddress);
  });

  // The complaint deadline and the prize age-check threshold (docs/product.md#complaints, #age-checks).
  const complianceView = (s: { complaintResponseDays: number; ageCheckPrizeThresholdPence: number }) =>
    ({
      complaintResponseDays: s.complaintResponseDays,
      ageCheckPrizeThreshold: penceToPounds(s.ageCheckPrizeThresholdPence),
    }) satisfies ComplianceSettings;
  router.get('/api/admin/settings/compliance', admin, async (ctx) => {
    ctx.body = complianceView(await getComplianceSettings(db));
  });
  router.put('/api/admin/settings/compliance', admin, async (ctx) => {
    const input = parse(ComplianceSettingsSchema, ctx.request.body);
    const saved = await setComplianceSettings(db, actorOf(ctx), {
      complaintResponseDays: input.complaintResponseDays,
      ageCheckPrizeThresholdPence: poundsToPence(input.ageCheckPrizeThreshold),
    });
    ctx.body = complianceView(saved);
  });

  for (const path of ['/api/uploads/hero-image', '/api/direct-upload/hero-image']) {
    router.post(path, admin, upload, async (ctx) => {
      const hero = await setHeroImage(db, actorOf(ctx), ctx.state.uploadedImageUrl!);
      ctx.status = 201;
      ctx.body = { success: true, ...hero };
    });
  }

  router.delete('/api/uploads/hero-image', admin, async (ctx) => {
    ctx.body = { success: true, ...(await resetHeroImage(db, actorOf(ctx))) };
  });

  // Set to an image already uploaded, or reset (GET /api/admin/hero-image is the public read).
  router.put('/api/admin/hero-image', admin, async (ctx) => {
    const { imageUrl } = parse(HeroImageSetSchema, ctx.request.body ?? {});
    const file = path.join(uploadsDirOf(config.dataDir), imageUrl.slice(UPLOADS_URL_PREFIX.length));
    if (!fs.existsSync(file)) throw badRequest('imageUrl must be an image uploaded to this site');
    ctx.body = { success: true, ...(await setHeroImage(db, actorOf(ctx), imageUrl)) };
  });

  router.delete('/api/admin/hero-image', admin, async (ctx) => {
    ctx.body = { success: true, ...(await resetHeroImage(db, actorOf(ctx))) };
  });
}
