/**
 * The text an upload puts into the message, as upstream's web app writes it: a placeholder
 * while the file travels, then a Markdown link to the uploaded file.
 */

/** Upstream's placeholder: an empty link naming the file. */
export const uploadPlaceholder = (name: string): string => `[Uploading ${name}…]()`;

/** The link to the uploaded file; brackets leave the name, as upstream's do, so the link text stays whole. */
export const uploadedLink = (name: string, url: string): string => `[${name.replaceAll('[', '').replaceAll(']', '')}](${url})`;

/** Upstream's refusal of a file over the server's limit, before it is sent. */
export const tooLargeMessage = (name: string, limitMib: number): string =>
  `${name} exceeds the maximum file size for attachments (${limitMib} MB).`;

export const UPLOADS_DISABLED = 'File and image uploads have been disabled for this organization.';

/**
 * `block` in place of the selection, on a line of its own (upstream's block insertion with one
 * newline of padding either side); the caret goes after it.
 */
export function insertBlock(text: string, start: number, end: number, block: string): { text: string; caret: number } {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const inserted = `${before !== '' && !before.endsWith('\n') ? '\n' : ''}${block}${after.startsWith('\n') ? '' : '\n'}`;
  return { text: `${before}${inserted}${after}`, caret: before.length + inserted.length };
}

/** The first `old` replaced by `replacement`; null when it is gone (the person deleted it). */
export function replaceFirst(text: string, old: string, replacement: string): string | null {
  const at = text.indexOf(old);
  return at < 0 ? null : `${text.slice(0, at)}${replacement}${text.slice(at + old.length)}`;
}

/** The text without the first `block`, and without the line breaks {@link insertBlock} gave it. */
export function removeBlock(text: string, block: string): string {
  const at = text.indexOf(block);
  if (at < 0) return text;
  let from = at;
  let to = at + block.length;
  if (text[to] === '\n') to += 1;
  if (to === text.length && from > 0 && text[from - 1] === '\n') from -= 1;
  return `${text.slice(0, from)}${text.slice(to)}`;
}
