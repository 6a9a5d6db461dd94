// The demo realm's archive imported in Chromium (what a first visit's engine worker does), in a
// fresh profile: the write cost of the user_messages indexes on the first visit.
import { freshProfile } from './chromium.ts';
import type { DemoImportSamples } from './import-page.ts';

const SAMPLES = 12;
const WARMUP = 2;

export async function measureDemoImport(origin: string): Promise<DemoImportSamples> {
  const profile = await freshProfile();
  try {
    const page = await profile.context.newPage();
    page.on('pageerror', (error) => console.error(`[import bench page] ${error.stack ?? error.message}`));
    await page.goto(`${origin}/bench/browser/import.html`);
    const samples = await page.evaluate((n) => window.offlineRealmImportBench(n), WARMUP + SAMPLES);
    const measured = (ms: number[]) => ms.slice(WARMUP);
    return {
      imports: measured(samples.imports),
      validation: measured(samples.validation),
      flagRowsBefore: measured(samples.flagRowsBefore),
      flagRowsNow: measured(samples.flagRowsNow),
      flagRows: samples.flagRows,
    };
  } finally {
    await profile.close();
  }
}
