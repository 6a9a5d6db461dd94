/**
 * RFC 6570 syntax check. The `url-template` package expands leniently and never refuses a
 * template, so the linkifier admin API needs this to reject malformed ones the way upstream does.
 */

const VARCHAR = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
const VARNAME = `${VARCHAR}(?:\\.?${VARCHAR})*`;
const VARSPEC = `(${VARNAME})(?::[1-9][0-9]{0,3}|\\*)?`;
const EXPRESSION = new RegExp(`^\\{[+#./;?&]?(${VARSPEC}(?:,${VARSPEC})*)\\}`);
const VARSPEC_NAME = new RegExp(`^${VARSPEC}$`);
// Anything but controls, space, quotes, `%` outside a percent-escape, and the characters RFC 6570 reserves.
const LITERALS = /^(?:[^\x00-\x20"'%<>\\^`{|}\x7f]|%[0-9A-Fa-f]{2})+/;

/** The variable names a template uses, or undefined when it is not a valid RFC 6570 template. */
export function templateVariables(template: string): string[] | undefined {
  const names: string[] = [];
  let rest = template;
  while (rest !== '') {
    const literals = LITERALS.exec(rest);
    if (literals) {
      rest = rest.slice(literals[0].length);
      continue;
    }
    const expression = EXPRESSION.exec(rest);
    if (!expression) return undefined;
    for (const spec of expression[1].split(',')) names.push(VARSPEC_NAME.exec(spec)![1]);
    rest = rest.slice(expression[0].length);
  }
  return names;
}
