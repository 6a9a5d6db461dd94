/**
 * The uploaded files themselves, at `/user_uploads/...` beside (not under) `/api/v1`, as
 * upstream serves them:
 * - `/user_uploads/{path_id}` and `/user_uploads/download/{path_id}` (always a download): with
 *   Basic auth, for a user who may access the file (its owner, or a reader of a message that
 *   links it); without auth, the path itself is the capability (its 24 random characters), since
 *   an `<img src>` cannot carry the per-tab Basic auth. See docs/ARCHITECTURE.md, Decisions.
 * - `/user_uploads/temporary/{token}/{name}`: upstream's temporary URL, one minute per token.
 * - a custom emoji's image, at its `source_url` under `/user_uploads/`: to anyone;
 * - a data export's archive, at its `export_url`: to anyone without auth, to administrators with it.
 * Only still images are shown in place; everything else is a download, and nothing served here
 * may run script on this origin (`nosniff`, a sandboxing Content-Security-Policy).
 */
import { authenticate } from '../auth/basic-auth.ts';
import { mayAccessAttachment } from '../actions/uploads.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { ApiError } from '../errors/api-error.ts';
import { readSnapshot } from '../services/run-action.ts';
import type { EngineServices } from '../services/engine-services.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { ROLE_ADMIN, type AttachmentRow } from '../storage/rows.ts';
import { pathIdFromUrlPath, USER_UPLOADS_PREFIX } from '../storage/upload-paths.ts';
import { isInlineType } from '../validation/upload-limits.ts';
import { fileNotAuthorized, fileNotFound } from './uploads.ts';

const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cache-Control': 'private, immutable',
};

export const isUploadedFilePath = (pathname: string): boolean => pathname.startsWith(USER_UPLOADS_PREFIX);

/** Answers a request for `/user_uploads/...`; throws ApiErrors for the engine to shape. */
export async function serveUploadedFile(engine: EngineServices, request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new ApiError('Method Not Allowed', { status: 405, extra: { allowed_methods: ['GET'] } });
  }
  const rest = url.pathname.slice(USER_UPLOADS_PREFIX.length);
  if (rest.startsWith('temporary/')) return serveTemporary(engine, rest.slice('temporary/'.length));
  const download = rest.startsWith('download/');
  const path = pathIdFromUrlPath(download ? rest.slice('download/'.length) : rest);
  if (path === null) throw fileNotFound();
  const header = request.headers.get('authorization');
  const row = await readSnapshot(engine, async (db): Promise<ServedFile> => {
    const found = await db.attachments.where('path_id').equals(path).first();
    if (!found) return (await realmExportFile(db, path, header)) ?? customEmojiImage(db, path);
    if (header !== null) {
      const directory = await RealmDirectory.load(db);
      if (!(await mayAccessAttachment(db, directory, authenticate(directory, header), found))) throw fileNotAuthorized();
    }
    return found;
  });
  return fileResponse(engine, row, download);
}

async function serveTemporary(engine: EngineServices, rest: string): Promise<Response> {
  const [token, name, ...extra] = rest.split('/');
  const path = engine.temporaryUploadUrls.resolve(token ?? '');
  if (path === null) throw new ApiError('Invalid token');
  let requested: string;
  try {
    requested = decodeURIComponent(name ?? '');
  } catch {
    requested = '';
  }
  if (extra.length > 0 || path.slice(path.lastIndexOf('/') + 1) !== requested) throw new ApiError('Invalid filename');
  const row = await readSnapshot(engine, (db) => db.attachments.where('path_id').equals(path).first());
  if (!row) throw new ApiError('Invalid token');
  return fileResponse(engine, row, false);
}

/** What serving a file needs to know of it. */
type ServedFile = Pick<AttachmentRow, 'path_id' | 'content_type' | 'file_name'>;

/**
 * A data export's archive: its address is the capability, as upstream's export URLs are; a
 * request that authenticates must come from an administrator.
 */
async function realmExportFile(db: RealmDatabase, path: string, header: string | null): Promise<ServedFile | null> {
  const row = await db.realm_exports.where('path_id').equals(path).first();
  if (!row) return null;
  if (header !== null && authenticate(await RealmDirectory.load(db), header).role > ROLE_ADMIN) throw fileNotAuthorized();
  return { path_id: path, content_type: 'application/json', file_name: path.slice(path.lastIndexOf('/') + 1) };
}

/** A custom emoji's image: public to anyone, as upstream's emoji files are. */
async function customEmojiImage(db: RealmDatabase, path: string): Promise<ServedFile> {
  const emoji = await db.realm_emoji.filter((e) => e.path_id === path).first();
  if (!emoji?.content_type) throw fileNotFound();
  return { path_id: path, content_type: emoji.content_type, file_name: path.slice(path.lastIndexOf('/') + 1) };
}

async function fileResponse(engine: EngineServices, row: ServedFile, download: boolean): Promise<Response> {
  const bytes = await engine.uploads.get(row.path_id);
  if (bytes === null) throw fileNotFound();
  const inline = !download && isInlineType(row.content_type);
  return new Response(bytes, {
    headers: {
      ...FILE_HEADERS,
      'Content-Type': row.content_type,
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': contentDisposition(inline, row.file_name),
    },
  });
}

/** RFC 6266: a plain `filename="..."` for printable ASCII, else RFC 8187's UTF-8 form. */
function contentDisposition(inline: boolean, fileName: string): string {
  const kind = inline ? 'inline' : 'attachment';
  if (/^[\x20-\x7e]*$/.test(fileName)) return `${kind}; filename="${fileName.replace(/[\\"]/g, '\\$&')}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(fileName)}`;
}
