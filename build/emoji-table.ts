import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

/** The fields of emoji-datasource's entries that the engine reads (src/engine/emoji/emoji-catalog.ts). */
const KEPT = ['short_name', 'short_names', 'unified', 'non_qualified', 'category', 'sort_order'] as const;

/**
 * Bundles `emoji-datasource/emoji.json` with only the fields the engine reads: 1.3 MB of image
 * coordinates and vendor flags become ~0.25 MB, which every first visit downloads, parses and
 * precaches. Node hosts import the package's file as it is.
 */
export function emojiTable(): Plugin {
  return {
    name: 'offline-realm:emoji-table',
    enforce: 'pre',
    async load(id) {
      if (!id.replace(/\\/g, '/').endsWith('/emoji-datasource/emoji.json')) return undefined;
      const entries = JSON.parse(await readFile(id, 'utf8')) as Record<string, unknown>[];
      const trimmed = entries.map((entry) => Object.fromEntries(KEPT.map((field) => [field, entry[field] ?? null])));
      // A JS module (not JSON) so no later JSON plugin parses it again.
      return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(trimmed))});`, moduleType: 'js' };
    },
  };
}
