/**
 * Upstream's web app's encoding of slugs, topics and search terms in a URL hash:
 * `encodeURIComponent`, then `%` -> `.`, `(` -> `.28`, `)` -> `.29`, `.` -> `.2E`, in one pass.
 */
const REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[%().]/g, (matched) => REPLACEMENTS[matched] ?? matched);
}

/** The inverse; a malformed component (a stray `.`) is kept as written rather than refused. */
export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return text;
  }
}
