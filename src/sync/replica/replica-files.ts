import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { API_PREFIX, type Engine } from '../../engine/engine.ts';
import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import { errorResponse } from '../../engine/http/json-response.ts';
import { pathIdFromUrlPath, USER_UPLOADS_PREFIX } from '../../engine/storage/upload-paths.ts';
import { fileTooLarge, maxFileUploadBytes, MULTIPART_OVERHEAD_BYTES } from '../../engine/validation/upload-limits.ts';
import type { HubAnswer } from './hub-client.ts';

/**
 * A replica's user's files (docs/SYNC.md, "Files"): an upload goes to the hub, whose answer the
 * client gets, and its bytes are kept here too; a file this replica does not hold is fetched
 * from the hub once and kept, with the hub's headers, so later requests are answered here.
 */

export const isUploadRequest = (request: Request, url: URL): boolean =>
  request.method === 'POST' && url.pathname === `${API_PREFIX}/user_uploads`;

/** A request for an uploaded file that the hub could answer: not a temporary URL, whose token is this engine's own. */
export function fetchableFilePath(request: Request, url: URL): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (!url.pathname.startsWith(USER_UPLOADS_PREFIX)) return null;
  const rest = url.pathname.slice(USER_UPLOADS_PREFIX.length);
  return rest.startsWith('temporary/') ? null : rest;
}

/** The upload's body, bounded as the engine bounds it; the engine's own refusal when it is larger. */
export async function uploadBody(engine: Engine, request: Request): Promise<Uint8Array<ArrayBuffer> | Response> {
  const { realm } = await RealmDirectory.load(engine.db);
  const body = await readBoundedBody(request, maxFileUploadBytes(realm) + MULTIPART_OVERHEAD_BYTES);
  return body ?? errorResponse(fileTooLarge(realm));
}

/** After the hub took the upload: its bytes, from the client's own body, under the path the hub gave (`url`). */
export async function keepUploadedFile(engine: Engine, body: Uint8Array<ArrayBuffer>, contentType: string, answer: { url?: unknown }): Promise<void> {
  const path = typeof answer.url === 'string' && answer.url.startsWith(USER_UPLOADS_PREFIX) ? pathIdFromUrlPath(answer.url.slice(USER_UPLOADS_PREFIX.length)) : null;
  if (path === null) return;
  const form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  const file = [...form.values()].find((value): value is File => typeof value !== 'string' && value.name !== '');
  if (file) await engine.uploads.put(path, new Uint8Array(await file.arrayBuffer()));
}

/** The headers of the hub's file answer that describe the file; the rest (CORS, a proxy's) belongs to that hop. */
const FILE_HEADERS = ['content-type', 'content-disposition', 'x-content-type-options', 'content-security-policy', 'cache-control'];

/** A file fetched from the hub before, answered from this replica's own copy; null when it holds none. */
export async function keptFile(engine: Engine, rest: string, method: string): Promise<Response | null> {
  const row = await engine.db.sync_files.get(rest);
  const bytes = row && (await engine.uploads.get(row.path_id));
  if (!row || !bytes) return null;
  return fileResponse(row.headers, bytes, method);
}

/** The hub's answer to the file request, passed on; a file it served is kept for the next requests. */
export async function keepFetchedFile(engine: Engine, rest: string, answer: HubAnswer, method: string): Promise<Response> {
  const headers = FILE_HEADERS.flatMap((name): [string, string][] => {
    const value = answer.headers.get(name);
    return value === null ? [] : [[name, value]];
  });
  const pathId = pathIdFromUrlPath(rest.startsWith('download/') ? rest.slice('download/'.length) : rest);
  if (answer.status !== 200 || pathId === null) return new Response(method === 'HEAD' ? null : answer.bytes, { status: answer.status, headers });
  await engine.uploads.put(pathId, answer.bytes);
  await engine.db.sync_files.put({ path: rest, path_id: pathId, headers });
  return fileResponse(headers, answer.bytes, method);
}

function fileResponse(headers: [string, string][], bytes: Uint8Array<ArrayBuffer>, method: string): Response {
  return new Response(method === 'HEAD' ? null : bytes, { headers: [...headers, ['content-length', String(bytes.byteLength)]] });
}
