/**
 * An upload's `path_id`, upstream's shape: `{realm_id}/{2 hex}/{24 random url-safe chars}/{name}`,
 * with the name sanitized as upstream's `sanitize_name` does. The random part is what makes
 * the address unguessable (144 bits). Its URL is `/user_uploads/{path_id}`, the name
 * percent-encoded.
 */
export const USER_UPLOADS_PREFIX = '/user_uploads/';

/** The 24-character random segment: base64url of 18 random bytes. */
const RANDOM_SEGMENT = /^[A-Za-z0-9_-]{24}$/;
const REALM_SEGMENT = /^[0-9]{1,9}$/;
const HEX_SEGMENT = /^[0-9a-f]{2}$/;

/**
 * Letters, marks, digits, `_`, `.`, `-` survive (after NFKC); runs of spaces and dashes become
 * one dash; nothing usable left gives `uploaded-file`. So a name never holds `/`, `\` or is `..`.
 */
export function sanitizeFileName(name: string): string {
  const kept = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{M}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return kept === '' || kept === '.' || kept === '..' ? 'uploaded-file' : kept;
}

export function newPathId(realmId: number, fileName: string): string {
  const random = new Uint8Array(19);
  crypto.getRandomValues(random);
  const hex = random[0].toString(16).padStart(2, '0');
  const token = btoa(String.fromCharCode(...random.subarray(1)))
    .replaceAll('+', '-')
    .replaceAll('/', '_');
  return `${realmId}/${hex}/${token}/${sanitizeFileName(fileName)}`;
}

/** `/user_uploads/{path_id}` with the name percent-encoded, as links and `<img src>` carry it. */
export function uploadUrl(pathId: string): string {
  const cut = pathId.lastIndexOf('/');
  return `${USER_UPLOADS_PREFIX}${pathId.slice(0, cut + 1)}${encodeURIComponent(pathId.slice(cut + 1))}`;
}

/**
 * The path_id a URL path after `/user_uploads/` names (`2/ab/RANDOM/name.png`, percent-encoded
 * or not), or null when it is not an upload's address at all.
 */
export function pathIdFromUrlPath(rest: string): string | null {
  const parts = rest.split('/');
  if (parts.length !== 4) return null;
  let name: string;
  try {
    name = decodeURIComponent(parts[3]);
  } catch {
    return null;
  }
  const [realm, hex, random] = parts;
  if (!REALM_SEGMENT.test(realm) || !HEX_SEGMENT.test(hex) || !RANDOM_SEGMENT.test(random)) return null;
  if (name === '' || name !== sanitizeFileName(name)) return null;
  return `${realm}/${hex}/${random}/${name}`;
}
