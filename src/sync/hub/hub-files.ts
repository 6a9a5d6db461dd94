import { API_PREFIX, type Engine } from '../../engine/engine.ts';
import { USER_UPLOADS_PREFIX } from '../../engine/storage/upload-paths.ts';

/**
 * A replica's user's files (docs/SYNC.md, "Files"), at `/sync/v1/` paths the hub origin's Service
 * Worker does not relay. Both run the engine's own routes as the caller's request, so the API's
 * authentication, size limits, permissions and answers apply unchanged: the hub decides nothing
 * of its own here.
 */

/** `POST /sync/v1/upload`: the API's `POST /user_uploads`, with the replica's multipart body as it came. */
export function runUpload(engine: Engine, request: Request): Promise<Response> {
  return engine.handle(new Request(new URL(`${API_PREFIX}/user_uploads`, request.url), request));
}

/** `GET /sync/v1/file/<rest>`: the hub's `/user_uploads/<rest>` for the caller's credentials. */
export function serveFile(engine: Engine, request: Request, rest: string): Promise<Response> {
  const headers = { Authorization: request.headers.get('authorization') ?? '' };
  return engine.handle(new Request(new URL(`${USER_UPLOADS_PREFIX}${rest}`, request.url), { method: 'GET', headers }));
}
