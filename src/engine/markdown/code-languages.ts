/**
 * The language a code block names, as upstream reports it in `data-code-language`: the display name
 * of the Pygments lexer for a known alias ("py" -> "Python"), otherwise the word as written.
 */

const PYGMENTS_NAMES: Record<string, string> = {
  bash: 'Bash', sh: 'Bash', shell: 'Bash', zsh: 'Bash',
  c: 'C', 'c++': 'C++', cpp: 'C++', csharp: 'C#', 'c#': 'C#', cs: 'C#',
  css: 'CSS', diff: 'Diff', patch: 'Diff', docker: 'Docker', dockerfile: 'Docker',
  go: 'Go', golang: 'Go', haskell: 'Haskell', hs: 'Haskell', html: 'HTML',
  ini: 'INI', java: 'Java', javascript: 'JavaScript', js: 'JavaScript', json: 'JSON',
  kotlin: 'Kotlin', latex: 'TeX', tex: 'TeX', lua: 'Lua', make: 'Makefile', makefile: 'Makefile',
  markdown: 'Markdown', md: 'Markdown', php: 'PHP', plain: 'Text only', text: 'Text only',
  py: 'Python', py3: 'Python', python: 'Python', python3: 'Python', py2: 'Python 2.x', python2: 'Python 2.x',
  rb: 'Ruby', ruby: 'Ruby', rs: 'Rust', rust: 'Rust', scala: 'Scala', sql: 'SQL', swift: 'Swift',
  toml: 'TOML', ts: 'TypeScript', typescript: 'TypeScript', xml: 'XML', yaml: 'YAML', yml: 'YAML',
};

/** The display name for a fence's info string, or undefined when it names no language. */
export function codeLanguageName(info: string | undefined): string | undefined {
  const word = info?.trim().split(/\s+/)[0]?.replace(/^\./, '');
  if (!word) return undefined;
  // Own names only: "constructor" or "__proto__" must not find the object's built-ins.
  const key = word.toLowerCase();
  return Object.hasOwn(PYGMENTS_NAMES, key) ? PYGMENTS_NAMES[key] : word;
}
