import type { LinkifierRow } from '../storage/rows.ts';

/** The realm's linkifiers as the API lists them: in processing order. */
export function linkifiersToWire(linkifiers: readonly LinkifierRow[]): Array<{ pattern: string; url_template: string; id: number }> {
  return linkifiers.map((l) => ({ pattern: l.pattern, url_template: l.url_template, id: l.id }));
}
