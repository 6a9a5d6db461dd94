/**
 * The longest list a parameter takes unless it names its own bound. Upstream bounds few lists
 * (message ids: 5000 per request); this server bounds every one, so no request can make it walk
 * an unbounded list (100,000 message ids held the database for 26 s). 1000 is more than any
 * client sends in one request: upstream's web app sends message ids in batches of 1000.
 */
export const MAX_LIST_LENGTH = 1000;

/** Upstream's `string_too_long` wording, counted in items. */
export const listTooLong = (name: string, max: number): string => `${name} is too long (limit: ${max} items)`;
