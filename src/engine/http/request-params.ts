import { ApiError } from '../errors/api-error.ts';

/**
 * Upstream's DATA_UPLOAD_MAX_MEMORY_SIZE (25 MiB): the largest form body read. A longer one is
 * refused before it is read whole, from its Content-Length when it declares one.
 */
export const MAX_REQUEST_BODY_BYTES = 25 * 1024 * 1024;
/** Django's DATA_UPLOAD_MAX_NUMBER_FIELDS: query and body parameters together. */
export const MAX_REQUEST_PARAMS = 1000;

/** How much body a request may send, and the error that refuses more. */
export interface BodyLimit {
  maxBytes: number;
  tooLarge(): ApiError;
}

/** The refusal of a body longer than `maxBytes` (the browser host's relay refuses with it too). */
export const bodyTooLarge = (maxBytes: number): ApiError =>
  new ApiError(`Request body too large (limit: ${maxBytes / (1024 * 1024)} MiB)`, { status: 413 });

const FORM_BODY_LIMIT: BodyLimit = { maxBytes: MAX_REQUEST_BODY_BYTES, tooLarge: () => bodyTooLarge(MAX_REQUEST_BODY_BYTES) };
const tooManyParams = () => new ApiError(`Too many parameters (limit: ${MAX_REQUEST_PARAMS})`);

export interface RequestParams {
  /** Every non-file parameter, raw. */
  params: Map<string, string>;
  /** The files of a multipart body, in order (only uploads read them). */
  files: File[];
}

/**
 * Collects a request's parameters the way the upstream server does: the query string for
 * every method, plus an urlencoded or multipart body for POST, PATCH, PUT and DELETE. When a
 * name appears in both, the body wins. Values stay raw strings; endpoint schemas decode them.
 * The body is bounded in bytes (a multipart one, which may carry files, by `multipartLimit`)
 * and the parameters in number, before any is decoded: a longer body is refused, not buffered.
 */
export async function readRequestParams(request: Request, url: URL, multipartLimit: BodyLimit): Promise<RequestParams> {
  const params = new Map<string, string>();
  const files: File[] = [];
  let count = 0;
  const add = (name: string, value: string) => {
    if (++count > MAX_REQUEST_PARAMS) throw tooManyParams();
    params.set(name, value);
  };
  for (const [name, value] of url.searchParams) add(name, value);
  if (request.method === 'GET' || request.method === 'HEAD') return { params, files };

  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const body = new URLSearchParams(await boundedBody(request, FORM_BODY_LIMIT).text());
    for (const [name, value] of body) add(name, value);
  } else if (contentType.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await boundedBody(request, multipartLimit).formData();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('Malformed multipart body');
    }
    for (const [name, value] of form) {
      if (typeof value === 'string') add(name, value);
      else files.push(value);
    }
  } else if (contentType.startsWith('application/json')) {
    throw new ApiError('JSON request bodies are not supported; send form-encoded parameters');
  }
  return { params, files };
}

/**
 * The request's body as a Response to parse, cut off with `limit.tooLarge()` as soon as it
 * passes the limit (a declared Content-Length over it is refused before reading anything).
 */
function boundedBody(request: Request, limit: BodyLimit): { text(): Promise<string>; formData(): Promise<FormData> } {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit.maxBytes) throw limit.tooLarge();
  let exceeded = false;
  let seen = 0;
  const counted = request.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit.maxBytes) {
          exceeded = true;
          controller.error(limit.tooLarge());
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const response = new Response(counted ?? null, { headers: { 'content-type': request.headers.get('content-type') ?? '' } });
  const refusedWhenExceeded = async <T>(read: Promise<T>): Promise<T> => {
    try {
      return await read;
    } catch (error) {
      if (exceeded) throw limit.tooLarge();
      throw error;
    }
  };
  return {
    text: () => refusedWhenExceeded(response.text()),
    formData: () => refusedWhenExceeded(response.formData()),
  };
}
