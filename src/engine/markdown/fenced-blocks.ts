/**
 * The fences whose body is not code: ```quote (a blockquote), ```spoiler Header (a collapsed block)
 * and ```math (display TeX). Fences nested inside them pair up like brackets, so a code block
 * inside a quote does not end the quote. Plain code fences are left to marked.
 */
import type { Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { displayMathHtml } from './math.ts';

const SPECIAL_OPENING = /^ {0,3}(`{3,}|~{3,})[ \t]*(quoted?|spoiler|math)(?:[ \t]+([^\n]*?))?[ \t]*(?:\n|$)/i;
const SPECIAL_OPENING_ANYWHERE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*(?:quoted?|spoiler|math)(?:[ \t]|$)/im;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\n]*?)[ \t]*$/;

interface FencedBlock {
  raw: string;
  kind: string;
  /** What follows the kind on the opening line: a spoiler's header. */
  argument: string;
  body: string;
}

function closes(line: RegExpExecArray, opener: string): boolean {
  return line[2] === '' && line[1][0] === opener[0] && line[1].length >= opener.length;
}

function readFencedBlock(src: string): FencedBlock | undefined {
  const opening = SPECIAL_OPENING.exec(src);
  if (!opening) return undefined;
  const lines = src.slice(opening[0].length).split('\n');
  const open = [opening[1]];
  let consumedLines = 0;
  while (consumedLines < lines.length && open.length > 0) {
    const fence = FENCE_LINE.exec(lines[consumedLines++]);
    if (!fence) continue;
    if (closes(fence, open.at(-1)!)) open.pop();
    else open.push(fence[1]);
  }
  // An unclosed block runs to the end of the message, as an unclosed code fence does.
  const bodyLines = open.length === 0 ? consumedLines - 1 : consumedLines;
  const rest = lines.slice(0, consumedLines).join('\n');
  return {
    raw: opening[0] + (consumedLines < lines.length ? `${rest}\n` : rest),
    kind: opening[2].toLowerCase(),
    argument: opening[3] ?? '',
    body: lines.slice(0, bodyLines).join('\n'),
  };
}

export const fencedBlockExtension: TokenizerAndRendererExtension = {
  name: 'fencedBlock',
  level: 'block',
  start: (src) => src.search(SPECIAL_OPENING_ANYWHERE),
  tokenizer(src) {
    const block = readFencedBlock(src);
    if (!block) return undefined;
    const lexer = this.lexer;
    // Blocks inside read as top-level Markdown (paragraphs, not bare text) even within a list.
    const blockTokens = (markdown: string): Token[] => {
      const top = lexer.state.top;
      lexer.state.top = true;
      const tokens = lexer.blockTokens(markdown, []);
      lexer.state.top = top;
      return tokens;
    };
    switch (block.kind) {
      case 'math':
        return { type: 'mathBlock', raw: block.raw, tex: block.body.trim() };
      case 'spoiler':
        return { type: 'spoiler', raw: block.raw, header: blockTokens(block.argument), tokens: blockTokens(block.body) };
      default:
        return { type: 'blockquote', raw: block.raw, text: block.body, tokens: blockTokens(block.body) } satisfies Tokens.Blockquote;
    }
  },
};

export const mathBlockExtension: TokenizerAndRendererExtension = {
  name: 'mathBlock',
  renderer: (token) => `<p>${displayMathHtml(token.tex as string)}</p>\n`,
};

export const spoilerExtension: TokenizerAndRendererExtension = {
  name: 'spoiler',
  renderer(token) {
    const header = this.parser.parse(token.header as Token[]);
    const content = this.parser.parse(token.tokens ?? []);
    return `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${content}</div></div>\n`;
  },
};
