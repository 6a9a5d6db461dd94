import { Tokenizer, type TokenizerObject } from 'marked';

/**
 * Upstream's lists nest by two spaces, whatever the marker ("1. a" then "  - b" puts b inside a);
 * CommonMark, which marked follows, nests an item only when it is indented to its parent's text
 * (three columns after "1. "). Before marked reads a message, each list item line nested that
 * way is moved to its parent's text column. Upstream also keeps one list when its bullets change
 * ("* a" then "- b"), where CommonMark starts another: such an item takes the list's first
 * bullet. Code blocks are left as typed; the Markdown inside quote and spoiler fences is handled
 * like the rest.
 */

const LIST_ITEM = /^( *)([*+-]|\d{1,9}[.)])( +)(?=\S)/;
const FENCE = /^ *(`{3,}|~{3,})[ \t]*([^\s`~]*)/;
const MARKDOWN_FENCES = new Set(['quote', 'quoted', 'spoiler']);
/** Upstream's nesting step. */
const NESTING = 2;
/** From this indent, a line outside a list is an indented code block. */
const CODE_INDENT = 4;

interface OpenItem {
  /** Its indent as typed. */
  typed: number;
  /** The column its text starts at, once moved. */
  text: number;
}

export function nestListsByTwoSpaces(markdown: string): string {
  if (!/\n *([*+-]|\d{1,9}[.)]) /.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  const open: OpenItem[] = [];
  /** Per nesting depth, the bullet of the list open there (null: a numbered one). */
  const bullets: (string | null)[] = [];
  /** The code fence being skipped: its character run, or null outside code. */
  let codeFence: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = FENCE.exec(line);
    if (codeFence !== null) {
      if (fence && fence[1]![0] === codeFence[0] && fence[1]!.length >= codeFence.length && fence[2] === '') codeFence = null;
      continue;
    }
    if (fence) {
      if (!MARKDOWN_FENCES.has(fence[2]!.toLowerCase())) codeFence = fence[1]!;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (!item) {
      // Text back at the left margin ends every list.
      if (line.trim() !== '' && line.length - line.trimStart().length < NESTING) open.length = bullets.length = 0;
      continue;
    }
    const typed = item[1]!.length;
    while (open.length > 0 && typed < open.at(-1)!.typed + NESTING) open.pop();
    const parent = open.at(-1);
    if (!parent && typed >= CODE_INDENT) continue;
    const indent = parent ? Math.max(parent.text, typed) : typed;
    // Past the parent's text by four or more, CommonMark would read code: the parent's text column it is.
    const moved = parent && indent >= parent.text + CODE_INDENT ? parent.text : indent;
    const depth = open.length;
    bullets.length = depth + 1;
    const typedMarker = item[2]!;
    const bullet = /^[*+-]$/.test(typedMarker) ? (bullets[depth] ?? typedMarker) : null;
    bullets[depth] = bullet;
    const marker = bullet ?? typedMarker;
    if (moved !== typed || marker !== typedMarker) lines[index] = ' '.repeat(moved) + marker + line.slice(typed + typedMarker.length);
    open.push({ typed, text: moved + marker.length + item[3]!.length });
  }
  return lines.join('\n');
}

const NUMBERED_ITEM = /^ {0,3}\d{1,9}[.)][ \t]+\S/;

/**
 * Inside a list item, upstream starts a numbered sublist on the line after the item's text at any
 * number ("2. B" then "  3. C" nests C, numbered from 3); CommonMark lets only a list starting at
 * 1 interrupt text, so marked would read "3. C" as more of B's text.
 */
export const listTokenizer: TokenizerObject = {
  list(src) {
    const { state } = this.lexer;
    const previous = state.lastToken;
    if (!state.top && previous?.type === 'text' && NUMBERED_ITEM.test(src)) state.lastToken = undefined;
    const token = Tokenizer.prototype.list.call(this, src);
    if (!token) state.lastToken = previous;
    return token;
  },
};
