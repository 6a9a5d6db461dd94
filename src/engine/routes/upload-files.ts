/**
 * The uploaded files themselves, at `/user_uploads/...` beside (not under) `/api/v1`, as
 * upstream serves them: `/user_uploads/{path_id}` (who may fetch which file is
 * actions/served-files.ts), `/user_uploads/download/{path_id}` (always a download), and
 * `/user_uploads/temporary/{token}/{name}`, upstream's temporary URL, one minute per token.
 * Only still images are shown in place; everything else is a download, and nothing served here
 * may run script on this origin (`nosniff`, a sandboxing Content-Security-Policy).
 */
import { fileNotFound, fileToServe, type ServedFile } from '../actions/served-files.ts';
import { ApiError } from '../errors/api-error.ts';
import { readSnapshot } from '../services/run-action.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { pathIdFromUrlPath, USER_UPLOADS_PREFIX } from '../storage/upload-paths.ts';
import { isInlineType } from '../validation/upload-limits.ts';

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
  const authorization = request.headers.get('authorization');
  const row = await readSnapshot(engine, (db) => fileToServe(db, path, authorization));
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
