// Lighthouse (the `lighthouse` package's Node API, default config = the mobile preset with
// simulated throttling) against the production build, in Debian's Chromium started by
// chrome-launcher (a dependency of lighthouse) with the browser tests' flags.
import fs from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium';

export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  cls: number;
  tbtMs: number;
  lcpMs: number;
  /**
   * Lighthouse's own measure of this machine's CPU speed, taken in the same run (BenchmarkIndex:
   * about 1,000 on a mid-tier phone). Its mobile preset slows the CPU by a fixed 4x whatever the
   * machine, so TBT and the Performance score follow this figure; compare scores only beside it.
   */
  benchmarkIndex: number;
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * One Lighthouse run of `url` in a fresh Chromium (a cold cache, as a new visitor has); with
 * `saveTo`, the full report (LHR JSON) is written there for its opportunities and diagnostics.
 */
export async function lighthouseOnce(url: string, saveTo?: string): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (saveTo) fs.writeFileSync(saveTo, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (id: string) => {
      const s = lhr.categories[id]?.score;
      if (typeof s !== 'number') throw new Error(`Lighthouse gave no ${id} score for ${url}`);
      return Math.round(s * 100);
    };
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      cls: Math.round(metric('cumulative-layout-shift') * 1000) / 1000,
      tbtMs: Math.round(metric('total-blocking-time')),
      lcpMs: Math.round(metric('largest-contentful-paint')),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    };
  } finally {
    chrome.kill();
  }
}
