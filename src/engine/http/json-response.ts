import { jsonAnswerResponse } from './json-answer-response.ts';
import type { ApiError } from '../errors/api-error.ts';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  // The upstream server ends every JSON body with a newline; clients that compare bytes see the same.
  const text = `${JSON.stringify(body)}\n`;
  return jsonAnswerResponse({ status, headers: { ...JSON_HEADERS, ...headers }, text });
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
