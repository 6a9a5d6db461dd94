import { ApiError } from '../errors/api-error.ts';

/**
 * `message_retention_days` as upstream reads it: a positive number of days, `realm_default`
 * (null: inherit the organization's) or `unlimited` (-1: keep forever).
 */
export function parseRetentionDays(value: string | number): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new ApiError(`Bad value for 'message_retention_days': ${String(value)}`, {
    code: 'REQUEST_VARIABLE_INVALID',
    extra: { var_name: 'message_retention_days', bad_value: value },
  });
}
