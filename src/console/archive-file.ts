import type { RealmArchive } from '../engine/realm-archive/realm-archive.ts';

/** Saves the archive as a .json download named after the realm's host and the export time. */
export function downloadArchive(archive: RealmArchive, host: string): string {
  const stamp = archive.exported_at.slice(0, 16).replace(/[:T]/g, '-');
  const name = `${host}-${stamp}.realm.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(archive)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  // Revoked later, not at once: the browser may still be reading the blob for the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

/** The parsed JSON of a chosen file; the engine validates it as an archive. */
export async function readArchiveFile(file: File): Promise<unknown> {
  try {
    return JSON.parse(await file.text());
  } catch {
    throw new Error(`${file.name} is not a JSON file`);
  }
}
