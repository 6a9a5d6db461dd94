/**
 * Which link targets a message may carry. Anything that could run script (javascript:, data:,
 * vbscript:, or an unknown scheme) is refused; the caller then leaves the Markdown as plain text.
 */

const SAFE_SCHEMES = new Set(['http', 'https', 'ftp', 'mailto', 'file', 'tel', 'sms']);
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const EMAIL = /^[^\s/@]+@[^\s/@]+\.[^\s/@]+$/;
// Browsers skip these inside a URL, so "java\tscript:" would still be javascript:.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** The URL to link to, or null when it must not become a link. */
export function sanitizeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === '' || CONTROL_CHARACTERS.test(trimmed)) return null;
  const scheme = SCHEME.exec(trimmed)?.[1];
  if (scheme !== undefined) return SAFE_SCHEMES.has(scheme.toLowerCase()) ? trimmed : null;
  if (/^[/#?]/.test(trimmed)) return trimmed;
  if (EMAIL.test(trimmed)) return `mailto:${trimmed}`;
  // Upstream reads a scheme-less target like "zulip.com/x" as a web address.
  return `http://${trimmed}`;
}
