import { ApiError } from '../errors/api-error.ts';

/**
 * Upstream's DATA_UPLOAD_MAX_MEMORY_SIZE (25 MiB): the largest body read. A longer one is
 * refused before it is read whole, from its Content-Length when it declares one.
 */
export const MAX_REQUEST_BODY_BYTES = 25 * 1024 * 1024;
/** Django's DATA_UPLOAD_MAX_NUMBER_FIELDS: query and body parameters together. */
export const MAX_REQUEST_PARAMS = 1000;

const bodyTooLarge = () =>
  new ApiError(`Request body too large (limit: ${MAX_REQUEST_BODY_BYTES / (1024 * 1024)} MiB)`, { status: 413 });
const tooManyParams = () => new ApiError(`Too many parameters (limit: ${MAX_REQUEST_PARAMS})`);

/**
 * Collects a request's parameters the way the upstream server does: the query string for
 * every method, plus an urlencoded or multipart body for POST, PATCH, PUT and DELETE. When a
 * name appears in both, the body wins. Values stay raw strings; endpoint schemas decode them.
 * The body is bounded in bytes and the parameters in number, before any is decoded.
 */
export async function readRequestParams(request: Request, url: URL): Promise<Map<string, string>> {
  const params = new Map<string, string>();
  let count = 0;
  const add = (name: string, value: string) => {
    if (++count > MAX_REQUEST_PARAMS) throw tooManyParams();
    params.set(name, value);
  };
  for (const [name, value] of url.searchParams) add(name, value);
  if (request.method === 'GET' || request.method === 'HEAD') return params;

  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const body = new URLSearchParams(new TextDecoder().decode(await readBody(request)));
    for (const [name, value] of body) add(name, value);
  } else if (contentType.startsWith('multipart/form-data')) {
    const bytes = await readBody(request);
    let form: FormData;
    try {
      form = await new Response(bytes as BodyInit, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new ApiError('Malformed multipart body');
    }
    for (const [name, value] of form) {
      if (typeof value === 'string') add(name, value);
    }
  } else if (contentType.startsWith('application/json')) {
    throw new ApiError('JSON request bodies are not supported; send form-encoded parameters');
  }
  return params;
}

/** The whole body, refused (413) once it passes the limit: by its declared length, or while read. */
async function readBody(request: Request): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > MAX_REQUEST_BODY_BYTES) throw bodyTooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > MAX_REQUEST_BODY_BYTES) {
      reader.releaseLock();
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
