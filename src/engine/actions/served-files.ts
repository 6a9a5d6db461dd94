/**
 * Which file a request for `/user_uploads/{path_id}` gets, and whether its credentials may have
 * it (the serving itself is routes/upload-files.ts):
 * - an upload: with Basic auth, its owner or a reader of a message that links it; without auth,
 *   the path itself is the capability (its 24 random characters), since an `<img src>` cannot
 *   carry the per-tab Basic auth. See docs/ARCHITECTURE.md, Decisions.
 * - a custom emoji's image, at its `source_url`: to anyone;
 * - a data export's archive, at its `export_url`: to anyone without auth, to administrators with it.
 */
import { authenticate } from '../auth/basic-auth.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { ApiError } from '../errors/api-error.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { ROLE_ADMIN, type AttachmentRow } from '../storage/rows.ts';
import { mayAccessAttachment } from './uploads.ts';

export const fileNotFound = () => new ApiError('This file does not exist or has been deleted.', { status: 404 });
export const fileNotAuthorized = () => new ApiError('You are not authorized to view this file.', { status: 403 });

/** What serving a file needs to know of it. */
export type ServedFile = Pick<AttachmentRow, 'path_id' | 'content_type' | 'file_name'>;

/** The file at `path` for a request with this `Authorization` header (null: none), or the refusal. */
export async function fileToServe(db: RealmDatabase, path: string, authorization: string | null): Promise<ServedFile> {
  const found = await db.attachments.where('path_id').equals(path).first();
  if (!found) return (await realmExportFile(db, path, authorization)) ?? customEmojiImage(db, path);
  if (authorization !== null) {
    const directory = await RealmDirectory.load(db);
    if (!(await mayAccessAttachment(db, directory, authenticate(directory, authorization), found))) throw fileNotAuthorized();
  }
  return found;
}

/**
 * A data export's archive: its address is the capability, as upstream's export URLs are; a
 * request that authenticates must come from an administrator.
 */
async function realmExportFile(db: RealmDatabase, path: string, authorization: string | null): Promise<ServedFile | null> {
  const row = await db.realm_exports.where('path_id').equals(path).first();
  if (!row) return null;
  if (authorization !== null && authenticate(await RealmDirectory.load(db), authorization).role > ROLE_ADMIN) throw fileNotAuthorized();
  return { path_id: path, content_type: 'application/json', file_name: path.slice(path.lastIndexOf('/') + 1) };
}

/** A custom emoji's image: public to anyone, as upstream's emoji files are. */
async function customEmojiImage(db: RealmDatabase, path: string): Promise<ServedFile> {
  const emoji = await db.realm_emoji.filter((e) => e.path_id === path).first();
  if (!emoji?.content_type) throw fileNotFound();
  return { path_id: path, content_type: emoji.content_type, file_name: path.slice(path.lastIndexOf('/') + 1) };
}
