/**
 * Code playgrounds (administrators), validated as upstream's RealmPlayground model is: field
 * errors first (blank fields, an invalid URL template, the language's characters and length),
 * then the template's variables, then uniqueness. The message is the first error; `errors`
 * lists them all by field. Every change sends the whole list to every user.
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import { templateVariables } from '../markdown/url-template-syntax.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { nextId } from '../storage/database.ts';
import { realmPlaygroundsToWire } from '../wire/realm-playground-wire.ts';
import { activeUserIds } from './profile-fields.ts';

export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
/** What upstream's view lets through before the model's check: spaces too, which trimming may remove. */
export const PYGMENTS_LANGUAGE_PARAM = /^[ a-zA-Z0-9_+-./#]*$/;
/** What a fenced code block's language may hold (upstream's FENCED_CODE_LANGUAGE_REGEX). */
const PLAYGROUND_LANGUAGE = /^[a-zA-Z0-9_+-./#]+$/;
const BLANK = 'This field cannot be blank.';

export interface PlaygroundInput {
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

export async function addRealmPlayground(scope: CallerScope, input: PlaygroundInput): Promise<number> {
  const name = input.name.trim();
  const language = input.pygmentsLanguage.trim();
  const urlTemplate = input.urlTemplate.trim();
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  const variables = templateVariables(urlTemplate);
  if (urlTemplate === '') add('url_template', BLANK);
  else if (variables === undefined) add('url_template', 'Invalid URL template.');
  if (name === '') add('name', BLANK);
  if (language === '') add('pygments_language', BLANK);
  else if (!PLAYGROUND_LANGUAGE.test(language)) add('pygments_language', 'Invalid characters in pygments language');
  if (variables !== undefined && urlTemplate !== '') {
    if (!variables.includes('code')) add('__all__', 'Missing the required variable "code" in the URL template');
    else if (new Set(variables).size !== 1) add('__all__', '"code" should be the only variable present in the URL template');
  }
  const existing = await scope.db.realm_playgrounds.toArray();
  if (!errors.name && !errors.pygments_language && existing.some((p) => p.name === name && p.pygments_language === language)) {
    add('__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw new ApiError(first, { extra: { errors } });

  const id = await nextId(scope.db, 'realm_playground');
  await scope.db.realm_playgrounds.add({ id, name, pygments_language: language, url_template: urlTemplate });
  await notifyPlaygrounds(scope);
  return id;
}

export async function removeRealmPlayground(scope: CallerScope, id: number): Promise<void> {
  if (!(await scope.db.realm_playgrounds.get(id))) throw badRequest('Invalid playground');
  await scope.db.realm_playgrounds.delete(id);
  await notifyPlaygrounds(scope);
}

async function notifyPlaygrounds(scope: CallerScope): Promise<void> {
  const playgrounds = realmPlaygroundsToWire(await scope.db.realm_playgrounds.toArray());
  scope.notify({ event: { type: 'realm_playgrounds', realm_playgrounds: playgrounds }, users: activeUserIds(scope.directory) });
}
