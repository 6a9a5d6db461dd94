import { ApiError } from '../errors/api-error.ts';

/**
 * Collects a request's parameters the way the upstream server does: the query string for
 * every method, plus an urlencoded or multipart body for POST, PATCH, PUT and DELETE. When a
 * name appears in both, the body wins. Values stay raw strings; endpoint schemas decode them.
 */
export async function readRequestParams(request: Request, url: URL): Promise<Map<string, string>> {
  const params = new Map<string, string>();
  for (const [name, value] of url.searchParams) params.set(name, value);
  if (request.method === 'GET' || request.method === 'HEAD') return params;

  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const body = new URLSearchParams(await request.text());
    for (const [name, value] of body) params.set(name, value);
  } else if (contentType.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ApiError('Malformed multipart body');
    }
    for (const [name, value] of form) {
      if (typeof value === 'string') params.set(name, value);
    }
  } else if (contentType.startsWith('application/json')) {
    throw new ApiError('JSON request bodies are not supported; send form-encoded parameters');
  }
  return params;
}
