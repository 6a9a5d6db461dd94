/**
 * Syntax colouring of code blocks as upstream's server gives it (Pygments through codehilite):
 * flat `<span class="k">` runs with Pygments' short token classes, which upstream's web app and
 * its mobile client colour. The tokens come from highlight.js (through lowlight's tree), its
 * scopes mapped to the nearest Pygments class; a language it does not know stays uncoloured.
 */
import type { Element, ElementContent, Root } from 'hast';
import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import haskell from 'highlight.js/lib/languages/haskell';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import latex from 'highlight.js/lib/languages/latex';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeCodeBlock } from './html-escape.ts';

/**
 * The characters of code one message may colour, over all its blocks; the rest stays plain.
 * highlight.js's grammars take time that grows faster than the code's length on some shapes (a
 * long word: ~40 ms for 3,000 characters in the worst grammars here, 0.5 s for 10,000), and a
 * render holds the engine's thread: this keeps a hostile message's colouring near 30 ms.
 */
export const MAX_COLOURED_CODE = 2_000;

const lowlight = createLowlight({
  bash, c, cpp, csharp, css, diff, dockerfile, go, haskell, ini, java, javascript, json, kotlin,
  latex, lua, makefile, markdown, php, python, ruby, rust, scala, sql, swift, typescript, xml, yaml,
});

/** The grammar's name, by the Pygments display name `codeLanguageName` gives (`code-languages.ts`). */
const GRAMMAR_NAMES: Record<string, string> = {
  Bash: 'bash', C: 'c', 'C++': 'cpp', 'C#': 'csharp', CSS: 'css', Diff: 'diff', Docker: 'dockerfile',
  Go: 'go', Haskell: 'haskell', HTML: 'xml', INI: 'ini', Java: 'java', JavaScript: 'javascript',
  JSON: 'json', Kotlin: 'kotlin', TeX: 'latex', Lua: 'lua', Makefile: 'makefile', Markdown: 'markdown',
  PHP: 'php', Python: 'python', 'Python 2.x': 'python', Ruby: 'ruby', Rust: 'rust', Scala: 'scala',
  SQL: 'sql', Swift: 'swift', TOML: 'ini', TypeScript: 'typescript', XML: 'xml', YAML: 'yaml',
};

/**
 * highlight.js scopes -> Pygments token classes. A scope not listed (`function`, `params`, a
 * tag's brackets) marks nothing itself: its text takes the class of the scope around it, if any.
 */
const PYGMENTS_CLASSES: Record<string, string> = {
  keyword: 'k', type: 'kt', literal: 'kc', built_in: 'nb', number: 'm',
  string: 's', regexp: 'sr', symbol: 'ss', 'char.escape': 'se', subst: 'si',
  comment: 'c', doctag: 'cs', meta: 'cp', 'meta.keyword': 'cp', 'meta.string': 'cpf',
  title: 'nf', 'title.function': 'nf', 'title.function.invoke': 'nf', 'title.class': 'nc',
  'title.class.inherited': 'nc', variable: 'nv', 'variable.language': 'bp', 'variable.constant': 'no',
  attr: 'na', attribute: 'na', property: 'py', operator: 'o', punctuation: 'p',
  name: 'nt', 'selector-tag': 'nt', 'selector-class': 'nc', 'selector-id': 'nn',
  'selector-attr': 'na', 'selector-pseudo': 'nd', section: 'gh', emphasis: 'ge', strong: 'gs',
  addition: 'gi', deletion: 'gd', bullet: 'k', code: 'sb', link: 'nl', quote: 'c1',
};

/** `hljs-title function_` (lowlight's classes for the scope `title.function`) -> `title.function`. */
function scopeOf(element: Element): string {
  const classes = (element.properties.className ?? []) as string[];
  return classes.map((name, index) => (index === 0 ? name.replace(/^hljs-/, '') : name.replace(/_+$/, ''))).join('.');
}

/**
 * The code as Pygments-classed HTML (text escaped as the uncoloured block escapes it), or null
 * when the language has no grammar here. As Pygments' formatter, no span crosses a line end.
 */
export function highlightedCode(code: string, language: string): string | null {
  const grammar = Object.hasOwn(GRAMMAR_NAMES, language) ? GRAMMAR_NAMES[language] : undefined;
  if (grammar === undefined) return null;
  const runs: { cls: string; text: string }[] = [];
  const walk = (nodes: readonly ElementContent[], cls: string): void => {
    for (const node of nodes) {
      if (node.type === 'text') {
        const last = runs.at(-1);
        if (last?.cls === cls) last.text += node.value;
        else runs.push({ cls, text: node.value });
      } else if (node.type === 'element') {
        walk(node.children, PYGMENTS_CLASSES[scopeOf(node)] ?? cls);
      }
    }
  };
  const tree: Root = lowlight.highlight(grammar, code);
  walk(tree.children as ElementContent[], '');
  const span = (cls: string, text: string) => (cls && text ? `<span class="${cls}">${escapeCodeBlock(text)}</span>` : escapeCodeBlock(text));
  return runs.map(({ cls, text }) => text.split('\n').map((line) => span(cls, line)).join('\n')).join('');
}
