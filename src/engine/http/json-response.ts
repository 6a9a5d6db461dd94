import type { ApiError } from '../errors/api-error.ts';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** The text of each answer `jsonResponse` made, by its Response (see `jsonResponseText`). */
const jsonTexts = new WeakMap<Response, string>();

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  // The upstream server ends every JSON body with a newline; clients that compare bytes see the same.
  const text = `${JSON.stringify(body)}\n`;
  const response = new Response(text, { status, headers: { ...JSON_HEADERS, ...headers } });
  jsonTexts.set(response, text);
  return response;
}

/**
 * The body of an answer `jsonResponse` made, while unread; null for any other response. A host
 * that copies the body elsewhere takes it at once: reading a Response's body in a browser waits
 * for a task of its own (the browser host's relay, relay-server.ts).
 */
export function jsonResponseText(response: Response): string | null {
  return response.bodyUsed ? null : (jsonTexts.get(response) ?? null);
}

export function successResponse(data: Record<string, unknown>, ignored: string[]): Response {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  return jsonResponse(body);
}

export function errorResponse(error: ApiError): Response {
  return jsonResponse(
    { result: 'error', msg: error.message, code: error.code, ...error.extra },
    error.status,
    error.headers,
  );
}

export function internalErrorResponse(): Response {
  return jsonResponse({ result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' }, 500);
}
