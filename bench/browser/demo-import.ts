// The demo realm's archive imported in Chromium (what a first visit's engine worker does), in a
// fresh profile: the write cost of the user_messages indexes on the first visit.
import { freshProfile } from './chromium.ts';

const SAMPLES = 12;
const WARMUP = 2;

export async function measureDemoImport(origin: string): Promise<number[]> {
  const profile = await freshProfile();
  try {
    const page = await profile.context.newPage();
    page.on('pageerror', (error) => console.error(`[import bench page] ${error.stack ?? error.message}`));
    await page.goto(`${origin}/bench/browser/import.html`);
    const ms = await page.evaluate((n) => window.offlineRealmImportBench(n), WARMUP + SAMPLES);
    return ms.slice(WARMUP);
  } finally {
    await profile.close();
  }
}
