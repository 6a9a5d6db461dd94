import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import { platformResponse } from '../../engine/http/json-answer-response.ts';
import { errorResponse } from '../../engine/http/json-response.ts';
import { bodyTooLarge, MAX_REQUEST_BODY_BYTES } from '../../engine/http/request-params.ts';
import { MAX_CONFIGURABLE_UPLOAD_SIZE_MIB, MULTIPART_OVERHEAD_BYTES } from '../../engine/validation/upload-limits.ts';

/** The longest multipart body any realm's engine reads: its largest possible upload and the framing. */
export const MAX_RELAYED_MULTIPART_BYTES = MAX_CONFIGURABLE_UPLOAD_SIZE_MIB * 1024 * 1024 + MULTIPART_OVERHEAD_BYTES;

/** What the relay sends on: the body the engine may read, or the answer that refuses it unread. */
export type RelayedBody = { body: ArrayBuffer | null } | { refused: Response };

/**
 * The request's body as the engine would read it, read no further than the engine ever would:
 * an urlencoded body up to the engine's form limit, a multipart one up to the largest upload a
 * realm may allow, and none of any other type (the engine reads no other body). A longer body
 * is refused with the engine's 413 before it is read whole: at once when its Content-Length
 * says so, else as soon as the bytes read pass the limit.
 */
export async function relayedBody(request: Request): Promise<RelayedBody> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return { body: null };
  const type = request.headers.get('content-type') ?? '';
  const limit = type.startsWith('application/x-www-form-urlencoded')
    ? MAX_REQUEST_BODY_BYTES
    : type.startsWith('multipart/form-data')
      ? MAX_RELAYED_MULTIPART_BYTES
      : null;
  if (limit === null) {
    await request.body.cancel();
    return { body: null };
  }
  const body = await readBoundedBody(request, limit);
  return body === null ? { refused: platformResponse(errorResponse(bodyTooLarge(limit))) } : { body: body.buffer };
}
