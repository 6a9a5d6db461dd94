import { parseFragment } from 'parse5';

/**
 * Finds what in an HTML fragment could run script or restyle the page once a client inserts
 * it: parsed by a real HTML parser (parse5, the WHATWG algorithm browsers follow), so
 * entities, odd quoting and broken tags count as a browser would read them.
 */

/** Elements that run script, load documents, restyle the page, or post forms. */
const LIVE_ELEMENTS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'link', 'meta',
  'form', 'input', 'button', 'textarea', 'select', 'svg', 'template', 'noscript', 'portal',
]);
/** Attributes that hold a URL a browser follows or loads. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background', 'cite', 'srcset', 'ping', 'lowsrc', 'dynsrc', 'manifest']);
/** The schemes a link or image may use; anything else (javascript:, vbscript:, data:, ...) could run. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'ftp', 'tel', 'sms', 'file']);

/** A URL as a browser reads its scheme: C0 controls and spaces around it dropped, tabs and newlines inside removed. */
export function urlScheme(url: string): string | null {
  const cleaned = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(cleaned)?.[1];
  return scheme === undefined ? null : scheme.toLowerCase();
}

/** Why this URL could run script, or null for a web URL or a relative one. */
export function unsafeUrl(url: string): string | null {
  const scheme = urlScheme(url);
  return scheme === null || SAFE_SCHEMES.has(scheme) ? null : `a ${scheme}: URL`;
}

interface ParsedNode {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: ParsedNode[];
  content?: ParsedNode;
}

/** Every live thing in `html`, described (an empty list for inert HTML). */
export function liveScript(html: string): string[] {
  const found: string[] = [];
  const visit = (node: ParsedNode) => {
    if (node.tagName !== undefined) {
      if (LIVE_ELEMENTS.has(node.tagName)) found.push(`a <${node.tagName}> element`);
      for (const { name, value } of node.attrs ?? []) {
        const attribute = name.toLowerCase();
        if (attribute.startsWith('on')) found.push(`an ${attribute} attribute on <${node.tagName}>`);
        if (attribute === 'srcdoc') found.push(`a srcdoc attribute on <${node.tagName}>`);
        if (attribute === 'style' && /url\s*\(|expression|javascript|@import/i.test(value)) found.push(`a style attribute loading something: ${value}`);
        if (URL_ATTRIBUTES.has(attribute)) {
          const candidates = attribute === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [value];
          for (const url of candidates) {
            const unsafe = unsafeUrl(url);
            if (unsafe) found.push(`${unsafe} in ${attribute} on <${node.tagName}>: ${url.slice(0, 80)}`);
          }
        }
      }
    }
    for (const child of node.childNodes ?? []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(parseFragment(html) as unknown as ParsedNode);
  return found;
}
