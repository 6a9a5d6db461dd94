/**
 * Realm linkifiers (admin API, so the endpoints admit administrators only): validation as
 * upstream's model does it, storage in order, and the `realm_linkifiers` event carrying the
 * whole ordered list after every change.
 */
import { RE2JS } from 're2js';
import { ApiError, badRequest } from '../errors/api-error.ts';
import {
  compileLinkifier,
  type LinkifierDefinition,
  LinkifierError,
  MAX_REALM_LINKIFIERS_PROGRAM_SIZE,
  templateSchemeAllowed,
} from '../markdown/linkifiers.ts';
import { templateVariables } from '../markdown/url-template-syntax.ts';
import { nextId } from '../storage/database.ts';
import type { LinkifierRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { linkifiersToWire } from '../wire/linkifier-wire.ts';

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
}

const BLANK = 'This field cannot be blank.';
const DUPLICATE = 'Realm filter with this Realm and Pattern already exists.';
const TOO_LARGE_TOGETHER = "The organization's linkifier patterns are too large together: remove or simplify one first.";

/** The compiled size of the realm's patterns with this one added or replacing `selfId`'s. */
function realmSizeWith(input: LinkifierInput, existing: readonly LinkifierRow[], selfId: number | null): number {
  const candidate = { id: 0, pattern: input.pattern, url_template: input.urlTemplate };
  return [...existing.filter((l) => l.id !== selfId), candidate].reduce((total, l) => total + compiledSize(l), 0);
}

/** A stored linkifier that no longer compiles links nothing, so it costs nothing. */
function compiledSize(linkifier: LinkifierDefinition): number {
  try {
    return compileLinkifier(linkifier).size;
  } catch (error) {
    if (error instanceof LinkifierError) return 0;
    throw error;
  }
}

export async function addLinkifier(scope: CallerScope, input: LinkifierInput): Promise<number> {
  const existing = await scope.db.linkifiers.toArray();
  const linkifier = validated(input, existing, null);
  const id = await nextId(scope.db, 'linkifier');
  // A new linkifier is processed after every existing one.
  const order = existing.reduce((max, l) => Math.max(max, l.order + 1), 0);
  await scope.db.linkifiers.add({ id, ...linkifier, order });
  await notifyLinkifiers(scope);
  return id;
}

export async function updateLinkifier(scope: CallerScope, input: LinkifierInput & { id: number }): Promise<void> {
  const { id } = input;
  const existing = await scope.db.linkifiers.toArray();
  if (!existing.some((l) => l.id === id)) throw badRequest('Linkifier not found.');
  await scope.db.linkifiers.update(id, validated(input, existing, id));
  await notifyLinkifiers(scope);
}

export async function removeLinkifier(scope: CallerScope, id: number): Promise<void> {
  if (!(await scope.db.linkifiers.get(id))) throw badRequest('Linkifier not found.');
  await scope.db.linkifiers.delete(id);
  await notifyLinkifiers(scope);
}

export async function reorderLinkifiers(scope: CallerScope, orderedIds: number[]): Promise<void> {
  const wanted = new Set(orderedIds);
  if (wanted.size < orderedIds.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
  const existing = await scope.db.linkifiers.toArray();
  if (existing.length !== wanted.size || existing.some((l) => !wanted.has(l.id))) {
    throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
  // Nothing to reorder: upstream answers success without an event.
  if (existing.length === 0) return;
  await scope.db.linkifiers.bulkPut(existing.map((l) => ({ ...l, order: orderedIds.indexOf(l.id) })));
  await notifyLinkifiers(scope);
}

/**
 * Upstream validates a linkifier as a Django model: field errors (blank fields, an invalid
 * template) first, then the pattern and the template against each other, then uniqueness of
 * the pattern. The message is the first error; `errors` lists them all by field.
 */
function validated(input: LinkifierInput, existing: readonly LinkifierRow[], selfId: number | null): { pattern: string; url_template: string } {
  const pattern = input.pattern.trim();
  const urlTemplate = input.urlTemplate.trim();
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  if (pattern === '') add('pattern', BLANK);
  const variables = templateVariables(urlTemplate);
  if (urlTemplate === '') add('url_template', BLANK);
  else if (variables === undefined || !templateSchemeAllowed(urlTemplate)) add('url_template', 'Invalid URL template.');
  const mismatch = patternProblem(pattern, urlTemplate, variables);
  if (mismatch !== undefined) add('__all__', mismatch);
  if (!errors.pattern && existing.some((l) => l.pattern === pattern && l.id !== selfId)) add('__all__', DUPLICATE);
  if (Object.keys(errors).length === 0 && realmSizeWith({ pattern, urlTemplate }, existing, selfId) > MAX_REALM_LINKIFIERS_PROGRAM_SIZE) {
    add('__all__', TOO_LARGE_TOGETHER);
  }

  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw new ApiError(first, { extra: { errors } });
  return { pattern, url_template: urlTemplate };
}

/** A bad regex, or a group named on one side only; nothing else is checked while the template is invalid. */
function patternProblem(pattern: string, urlTemplate: string, variables: string[] | undefined): string | undefined {
  if (variables === undefined) {
    try {
      RE2JS.compile(pattern);
    } catch (error) {
      return `Bad regular expression: ${(error as Error).message}`;
    }
    return undefined;
  }
  try {
    // The renderer's own compilation: what it refuses, the API refuses.
    compileLinkifier({ id: 0, pattern, url_template: urlTemplate });
  } catch (error) {
    if (error instanceof LinkifierError) return error.message;
    throw error;
  }
  const unused = Object.keys(RE2JS.compile(pattern).namedGroups())
    .filter((group) => !variables.includes(group))
    .sort();
  return unused.length > 0 ? `Group '${unused[0]}' in linkifier pattern is not present in URL template.` : undefined;
}

/** Every active user's queues get the new list; the finalizer keeps it from clients without URL templates. */
async function notifyLinkifiers(scope: ActionScope): Promise<void> {
  const linkifiers = (await scope.db.linkifiers.toArray())
    .sort((a, b) => a.order - b.order || a.id - b.id);
  const users = (await scope.db.users.toArray()).filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
  scope.notify({ event: { type: 'realm_linkifiers', realm_linkifiers: linkifiersToWire(linkifiers) }, users });
}
