/**
 * An error the API reports to the client: `{result: "error", msg, code, ...extra}` with an
 * HTTP status. Codes and statuses follow the upstream server (see docs/ARCHITECTURE.md).
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    msg: string,
    options: { code?: string; status?: number; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.code = options.code ?? 'BAD_REQUEST';
    this.status = options.status ?? 400;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (msg: string, extra?: Record<string, unknown>): ApiError =>
  new ApiError(msg, { extra });

export const missingArgument = (name: string): ApiError =>
  new ApiError(`Missing '${name}' argument`, { code: 'REQUEST_VARIABLE_MISSING', extra: { var_name: name } });

export const unauthorized = (msg: string, code = 'UNAUTHORIZED'): ApiError =>
  new ApiError(msg, { code, status: 401, headers: { 'WWW-Authenticate': 'Basic realm="zulip"' } });

export const streamDoesNotExistById = (streamId: number): ApiError =>
  new ApiError(`Channel with ID '${streamId}' does not exist`, {
    code: 'STREAM_DOES_NOT_EXIST',
    extra: { stream_id: streamId },
  });

export const streamDoesNotExistByName = (name: string): ApiError =>
  new ApiError(`Channel '${name}' does not exist`, { code: 'STREAM_DOES_NOT_EXIST', extra: { stream: name } });

export const badNarrow = (desc: string): ApiError =>
  new ApiError(`Invalid narrow operator: ${desc}`, { code: 'BAD_NARROW', extra: { desc } });

export const unauthorizedPrincipal = (msg: string): ApiError => new ApiError(msg, { code: 'UNAUTHORIZED_PRINCIPAL' });

export const badEventQueueId = (queueId: string): ApiError =>
  new ApiError(`Bad event queue ID: ${queueId}`, { code: 'BAD_EVENT_QUEUE_ID', extra: { queue_id: queueId } });

export const invalidMessage = (): ApiError => badRequest('Invalid message(s)');
