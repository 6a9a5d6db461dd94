import { ApiError, badRequest } from '../errors/api-error.ts';
import { charLength, MAX_STREAM_NAME_LENGTH } from './message-limits.ts';
import { firstUnprintablePosition } from './printable-text.ts';

/** A channel name as upstream accepts it: stripped, non-empty, short enough, printable. */
export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest("Channel name can't be empty.");
  if (charLength(name) > MAX_STREAM_NAME_LENGTH) {
    throw badRequest(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  const position = firstUnprintablePosition(name);
  if (position !== null) throw badRequest(`Invalid character in channel name, at position ${position}.`);
  return name;
}

/** Upstream keeps channel descriptions on one line. */
export const channelDescription = (raw: string): string => raw.replaceAll('\n', ' ');

/** A channel name already in use (case-insensitively), as upstream reports it. */
export const channelExists = (name: string): ApiError =>
  new ApiError(`Channel '${name}' already exists`, { code: 'CHANNEL_ALREADY_EXISTS', extra: { channel_name: name } });
