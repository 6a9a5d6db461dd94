import { badRequest } from '../errors/api-error.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { profileDataValue } from '../wire/user-wire.ts';
import { renderMessage } from '../markdown/render-message.ts';
import { nextId } from '../storage/database.ts';
import { charLength } from '../validation/message-limits.ts';
import { ROLE_ADMIN, type CustomProfileFieldRow, type ProfileValueRow, type UserRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { listProfileFields, profileFieldToWire } from '../wire/profile-field-wire.ts';

/** Upstream's custom profile field types (spec 4.10). */
export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;
type FieldType = CustomProfileFieldRow['field_type'];

export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;
const MAX_SUMMARY_FIELDS = 2;
const SHORT_VALUE_MAX_LENGTH = 50;
const LONG_VALUE_MAX_LENGTH = 500;

/** External account kinds with a built-in name and hint (`field_data.subtype`); `custom` brings its own URL pattern. */
const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string }> = {
  github: { name: 'GitHub', hint: 'Enter your GitHub username' },
  twitter: { name: 'Twitter', hint: 'Enter your Twitter username' },
};

/** Field data as the API exchanges it: a JSON object (choices, or an external account's subtype). */
export type FieldData = Record<string, unknown>;

export interface NewProfileField {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export type ProfileFieldChanges = Partial<Omit<NewProfileField, 'fieldType'>>;

export type ProfileFieldUpdate = ProfileFieldChanges & { fieldId: number };

/** One `profile_data` entry: a string, a user id list (person picker), or null/empty to clear. */
export interface ProfileDataEntry {
  id: number;
  value: string | number[] | null;
}

export async function createProfileField(scope: CallerScope, input: NewProfileField): Promise<number> {
  const existing = await listProfileFields(scope.db);
  if (input.displayInProfileSummary && summaryCount(existing) >= MAX_SUMMARY_FIELDS) throw summaryLimitReached();
  const fieldData = checkFieldData(input.fieldType, input.fieldData);
  const builtIn = builtInExternalAccount(input.fieldType, input.fieldData);
  const name = builtIn ? builtIn.name : input.name.trim();
  const hint = builtIn ? builtIn.hint : input.hint;
  if (!builtIn) checkNameAndHint(name, hint);
  const fieldType = checkFieldType(input.fieldType);
  checkSummaryType(fieldType, input.displayInProfileSummary);
  if (existing.some((f) => f.name === name)) throw badRequest('A field with that label already exists.');

  // Upstream gives a new field the order equal to its id, so it lands last.
  const id = await nextId(scope.db, 'custom_profile_field');
  await scope.db.custom_profile_fields.add({
    id,
    name,
    hint,
    field_type: fieldType,
    field_data: fieldData,
    order: id,
    display_in_profile_summary: input.displayInProfileSummary,
    required: input.required,
    editable_by_user: input.editableByUser,
  });
  await notifyProfileFields(scope);
  return id;
}

export async function updateProfileField(scope: CallerScope, { fieldId, ...changes }: ProfileFieldUpdate): Promise<void> {
  const fields = await listProfileFields(scope.db);
  const field = fields.find((f) => f.id === fieldId);
  if (!field) throw fieldNotFound(fieldId);
  const others = fields.filter((f) => f.id !== fieldId);
  if (changes.displayInProfileSummary && summaryCount(others) >= MAX_SUMMARY_FIELDS) throw summaryLimitReached();

  const storedData = field.field_data === '' ? {} : (JSON.parse(field.field_data) as FieldData);
  const name = changes.name === undefined ? field.name : changes.name.trim();
  const hint = changes.hint ?? field.hint;
  if (builtInExternalAccount(field.field_type, storedData)) {
    const sameData = changes.fieldData === undefined || JSON.stringify(changes.fieldData) === field.field_data;
    if (name !== field.name || hint !== field.hint || !sameData) throw badRequest('Default custom field cannot be updated.');
  }
  const fieldData = changes.fieldData === undefined ? field.field_data : checkFieldData(field.field_type, changes.fieldData);
  if (!builtInExternalAccount(field.field_type, storedData)) checkNameAndHint(name, hint);
  const summary = changes.displayInProfileSummary ?? field.display_in_profile_summary;
  checkSummaryType(field.field_type, summary);
  if (others.some((f) => f.name === name)) throw badRequest('A field with that label already exists.');

  if (field.field_type === FIELD_TYPE.SELECT && changes.fieldData !== undefined) {
    await dropRemovedChoices(scope, field.id, changes.fieldData);
  }
  await scope.db.custom_profile_fields.put({
    ...field,
    name,
    hint,
    field_data: fieldData,
    display_in_profile_summary: summary,
    required: changes.required ?? field.required,
    editable_by_user: changes.editableByUser ?? field.editable_by_user,
  });
  await notifyProfileFields(scope);
}

/** Deletes a field and every user's value for it. */
export async function deleteProfileField(scope: CallerScope, fieldId: number): Promise<void> {
  if (!(await scope.db.custom_profile_fields.get(fieldId))) throw fieldNotFound(fieldId);
  await scope.db.profile_values.where('field_id').equals(fieldId).delete();
  await scope.db.custom_profile_fields.delete(fieldId);
  await notifyProfileFields(scope);
}

/** `order` must name every field; each field's order becomes its position in the list. */
export async function reorderProfileFields(scope: CallerScope, order: number[]): Promise<void> {
  const fields = await listProfileFields(scope.db);
  const position = new Map(order.map((id, index) => [id, index]));
  if (fields.some((f) => !position.has(f.id))) throw badRequest('Invalid order mapping.');
  await scope.db.custom_profile_fields.bulkPut(fields.map((f) => ({ ...f, order: position.get(f.id)! })));
  await notifyProfileFields(scope);
}

/**
 * Sets or clears `target`'s values (an empty value clears), refusing everything if one entry
 * is invalid. Users who are not administrators may change only fields editable by users.
 * Each changed value is announced as a `realm_user` update.
 */
export async function setProfileData(
  scope: ActionScope,
  directory: RealmDirectory,
  actor: UserRow,
  target: UserRow,
  entries: ProfileDataEntry[],
): Promise<void> {
  const fields = new Map((await scope.db.custom_profile_fields.toArray()).map((f) => [f.id, f]));
  const changes: { field: CustomProfileFieldRow; value: string | null }[] = [];
  for (const entry of entries) {
    const field = fields.get(entry.id);
    if (!field) throw fieldNotFound(entry.id);
    const cleared = entry.value === null || entry.value.length === 0;
    if (actor.role > ROLE_ADMIN && !field.editable_by_user) {
      throw badRequest('You are not allowed to change this field. Contact an administrator to update it.');
    }
    changes.push({ field, value: cleared ? null : checkValue(field, entry.value!, directory) });
  }

  const audience = activeUserIds(directory);
  for (const { field, value } of changes) {
    const key: [number, number] = [target.id, field.id];
    const stored = await scope.db.profile_values.get(key);
    let change: Record<string, unknown>;
    if (value === null) {
      if (!stored) continue;
      await scope.db.profile_values.delete(key);
      change = { value: null };
    } else {
      if (stored?.value === value) continue;
      const row: ProfileValueRow = { user_id: target.id, field_id: field.id, value };
      if (isMarkdownField(field)) row.rendered_value = renderMessage(value, directory.markdownRealm()).html;
      await scope.db.profile_values.put(row);
      change = profileDataValue(row);
    }
    scope.notify({
      event: { type: 'realm_user', op: 'update', person: { user_id: target.id, custom_profile_field: { id: field.id, ...change } } },
      users: audience,
    });
  }
}

/** PATCH / DELETE /users/me/profile_data: the caller's own values (null clears one). */
export async function setOwnProfileData(scope: CallerScope, entries: ProfileDataEntry[]): Promise<void> {
  await setProfileData(scope, scope.directory, scope.caller, scope.caller, entries);
}

/** Users whose clients keep the realm's user list (every active account). */
export function activeUserIds(directory: RealmDirectory): number[] {
  return [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
}

async function notifyProfileFields(scope: CallerScope): Promise<void> {
  const fields = await listProfileFields(scope.db);
  scope.notify({ event: { type: 'custom_profile_fields', fields: fields.map(profileFieldToWire) }, users: activeUserIds(scope.directory) });
}

/** Values of choices that no longer exist are removed, as upstream does. */
async function dropRemovedChoices(scope: ActionScope, fieldId: number, fieldData: FieldData): Promise<void> {
  const values = await scope.db.profile_values.where('field_id').equals(fieldId).toArray();
  const gone = values.filter((v) => !(v.value in fieldData)).map((v): [number, number] => [v.user_id, v.field_id]);
  await scope.db.profile_values.bulkDelete(gone);
}

const isMarkdownField = (field: CustomProfileFieldRow): boolean =>
  field.field_type === FIELD_TYPE.SHORT_TEXT || field.field_type === FIELD_TYPE.LONG_TEXT;

const summaryCount = (fields: CustomProfileFieldRow[]): number => fields.filter((f) => f.display_in_profile_summary).length;

const summaryLimitReached = () => badRequest('Only 2 custom profile fields can be displayed in the profile summary.');

const fieldNotFound = (id: number) => badRequest(`Field id ${id} not found.`);

function checkFieldType(fieldType: number): FieldType {
  if (!Object.values(FIELD_TYPE).includes(fieldType as FieldType)) throw badRequest('Invalid field type.');
  return fieldType as FieldType;
}

function checkNameAndHint(name: string, hint: string): void {
  if (!name) throw badRequest('Label cannot be blank.');
  if (charLength(hint) > HINT_MAX_LENGTH) throw badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
  if (charLength(name) > NAME_MAX_LENGTH) throw badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
}

/** Long text and person picker fields never show in the profile summary. */
function checkSummaryType(fieldType: number, displayInProfileSummary: boolean): void {
  if (displayInProfileSummary && (fieldType === FIELD_TYPE.LONG_TEXT || fieldType === FIELD_TYPE.USER)) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
}

function builtInExternalAccount(fieldType: number, fieldData: FieldData): { name: string; hint: string } | undefined {
  if (fieldType !== FIELD_TYPE.EXTERNAL_ACCOUNT) return undefined;
  return typeof fieldData.subtype === 'string' ? DEFAULT_EXTERNAL_ACCOUNTS[fieldData.subtype] : undefined;
}

/** The `field_data` text to store: choices for lists of options, the subtype of external accounts, else empty. */
function checkFieldData(fieldType: number, fieldData: FieldData): string {
  if (fieldType === FIELD_TYPE.SELECT) {
    checkChoices(fieldData);
    return JSON.stringify(fieldData);
  }
  if (fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    checkExternalAccount(fieldData);
    return JSON.stringify(fieldData);
  }
  return '';
}

/** A list of options: `{key: {text, order}}`, at least one, no two with the same text. */
function checkChoices(fieldData: FieldData): void {
  const entries = Object.entries(fieldData);
  if (entries.length === 0) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, choice] of entries) {
    if (!key.trim()) throw badRequest("'value' cannot be blank.");
    checkStringDict(choice, ['text', 'order'], []);
    texts.add((choice as { text: string }).text);
  }
  if (texts.size !== entries.length) throw badRequest('Field must not have duplicate choices.');
}

/** `{subtype}` naming a built-in account kind, or `{subtype: "custom", url_pattern}`. */
function checkExternalAccount(fieldData: FieldData): void {
  checkStringDict(fieldData, ['subtype'], ['url_pattern']);
  const { subtype, url_pattern: urlPattern } = fieldData as { subtype: string; url_pattern?: string };
  if (urlPattern !== undefined) {
    if (urlPattern.split('%(username)s').length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
    if (!isUrl(urlPattern.replace('%(username)s', 'username'))) throw badRequest('field_data["url_pattern"] is not a URL');
  }
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (subtype !== 'custom') throw badRequest('Invalid external account type');
  if (urlPattern === undefined) throw badRequest('Custom external account must define URL pattern');
}

/** A dict with the required (non-blank) and optional string keys and no others, as upstream's check_dict_only. */
function checkStringDict(value: unknown, required: string[], optional: string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('field_data is not a dict');
  const dict = value as Record<string, unknown>;
  for (const key of required) {
    if (!(key in dict)) throw badRequest(`${key} key is missing from field_data`);
  }
  for (const key of [...required, ...optional]) {
    if (!(key in dict)) continue;
    if (typeof dict[key] !== 'string') throw badRequest(`field_data["${key}"] is not a string`);
    if (required.includes(key) && !(dict[key] as string).trim()) throw badRequest(`field_data["${key}"] cannot be blank.`);
  }
  const unexpected = Object.keys(dict).filter((key) => !required.includes(key) && !optional.includes(key));
  if (unexpected.length > 0) throw badRequest(`Unexpected arguments: ${unexpected.join(', ')}`);
}

/** One value checked against its field's type, as the text to store (person pickers: a JSON id list). */
function checkValue(field: CustomProfileFieldRow, value: string | number[], directory: RealmDirectory): string {
  const name = field.name;
  if (field.field_type === FIELD_TYPE.USER) return JSON.stringify(checkUserIds(value, directory));
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  switch (field.field_type) {
    case FIELD_TYPE.LONG_TEXT:
      return capped(name, value, LONG_VALUE_MAX_LENGTH);
    case FIELD_TYPE.SELECT:
      if (!(value in (JSON.parse(field.field_data) as FieldData))) {
        throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      }
      return value;
    case FIELD_TYPE.DATE:
      if (!isDate(value)) throw badRequest(`${name} is not a date`);
      return value;
    case FIELD_TYPE.URL:
      if (!isUrl(value)) throw badRequest(`${name} is not a URL`);
      return value;
    default:
      return capped(name, value, SHORT_VALUE_MAX_LENGTH);
  }
}

function capped(name: string, value: string, limit: number): string {
  if (charLength(value) > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
  return value;
}

/** A person picker's value: active human users of the realm. */
function checkUserIds(value: string | number[], directory: RealmDirectory): number[] {
  if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
  for (const id of value) {
    const user = directory.users.get(id);
    if (!user || user.is_system_bot) throw badRequest(`Invalid user ID: ${id}`);
    if (!user.is_active) throw badRequest(`User with ID ${id} is deactivated`);
    if (user.is_bot) throw badRequest(`User with ID ${id} is a bot`);
  }
  return value;
}

/** `YYYY-MM-DD`, a real calendar day. */
function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** An absolute http(s)/ftp(s) URL with a host, as Django's URL validator accepts. */
function isUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return ['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) && url.hostname !== '';
}
