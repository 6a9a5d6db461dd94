// The Chromium the bench drives: Debian's, with the flags the browser tests use (scripts/chromium-flags.ts).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium-flags.ts';

export { CHROMIUM };

/** Why the browser figures cannot be taken here, or null when they can. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (scripts/ensure-chromium.sh installs it)`;
}

export interface Profile {
  context: BrowserContext;
  /** Closes the browser and deletes the profile. */
  close(): Promise<void>;
}

/**
 * Headless Chromium on a new, empty profile directory. A persistent profile rather than
 * `browser.newContext()`: Chromium keeps an incognito context's IndexedDB in memory, and the
 * figures should be those of a user's on-disk database.
 */
export async function freshProfile(): Promise<Profile> {
  const dir = await mkdtemp(join(tmpdir(), 'offline-realm-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
