import { ApiError } from '../errors/api-error.ts';
import type { RealmRow } from '../storage/rows.ts';

/** Upstream's default `MAX_FILE_UPLOAD_SIZE`, in MiB. */
export const DEFAULT_MAX_FILE_UPLOAD_SIZE_MIB = 25;

/** The largest upload size a realm may be given (the scenario's `max_file_upload_size_mib`). */
export const MAX_CONFIGURABLE_UPLOAD_SIZE_MIB = 1024;

/** Room a multipart body may take beyond its file: boundaries, part headers, small fields. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Upstream's default `MAX_EMOJI_FILE_SIZE_MIB`. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

export const maxFileUploadSizeMib = (realm: RealmRow): number =>
  realm.max_file_upload_size_mib ?? DEFAULT_MAX_FILE_UPLOAD_SIZE_MIB;

export const maxFileUploadBytes = (realm: RealmRow): number => maxFileUploadSizeMib(realm) * 1024 * 1024;

/** Upstream's message for a self-hosted server (this server's plan type). */
export const fileTooLarge = (realm: RealmRow): ApiError =>
  new ApiError(`File is larger than this server's configured maximum upload size (${maxFileUploadSizeMib(realm)} MiB).`);

const TYPES_BY_EXTENSION: Record<string, string> = {
  apng: 'image/apng',
  avif: 'image/avif',
  bmp: 'image/bmp',
  csv: 'text/csv',
  gif: 'image/gif',
  htm: 'text/html',
  html: 'text/html',
  jpe: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  json: 'application/json',
  md: 'text/markdown',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
  png: 'image/png',
  svg: 'image/svg+xml',
  txt: 'text/plain',
  wav: 'audio/wav',
  webm: 'video/webm',
  webp: 'image/webp',
  zip: 'application/zip',
};

/** `type/subtype` with optional parameters, as a multipart part header may carry it. */
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;[\x20-\x7e]*)?$/i;
const MAX_CONTENT_TYPE_LENGTH = 255;

/**
 * The type the client sent; without a usable one, guessed from the name (upstream's rule).
 * `application/octet-stream` counts as none: it is what multipart encoders write for a file
 * whose type they do not know.
 */
export function uploadContentType(sent: string, fileName: string): string {
  const usable = sent.length <= MAX_CONTENT_TYPE_LENGTH && CONTENT_TYPE.test(sent) && !/^application\/octet-stream\b/i.test(sent);
  if (usable) return sent;
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return (extension && TYPES_BY_EXTENSION[extension]) || 'application/octet-stream';
}

/**
 * Types a browser may show in place: still images only. Everything else (SVG and HTML above
 * all, which could run script on this origin) is served as a download.
 */
const INLINE_TYPES = new Set(['image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);

export const isInlineType = (contentType: string): boolean =>
  INLINE_TYPES.has(contentType.split(';', 1)[0].trim().toLowerCase());
