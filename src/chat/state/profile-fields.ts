import { signal } from '@preact/signals';
import type { InitialState, ServerEvent, User, WireProfileField, WireProfileValue } from '../api/wire-types.ts';

/** Upstream's custom profile field types. */
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

/** A realm's field as the app uses it: its `field_data` JSON already read. */
export interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  order: number;
  /** False: only administrators may set it, their own included. */
  editableByUser: boolean;
  /** A list of options' choices, in their order (empty for other types). */
  choices: readonly { key: string; text: string }[];
  /** An external account's URL with `%(username)s` where the value goes; null: shown as text. */
  urlPattern: string | null;
}

/** A user's value of one field. */
export interface ProfileValue {
  value: string;
  /** HTML from the server, for the types it renders as Markdown. */
  renderedValue?: string;
}

/** How one value reads on a person's card; dates and names are left to the UI to write out. */
export type ShownValue =
  | { kind: 'text'; text: string }
  | { kind: 'html'; html: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'date'; date: string }
  | { kind: 'people'; userIds: readonly number[] };

type ValuesByUser = ReadonlyMap<number, ReadonlyMap<number, ProfileValue>>;

/**
 * The realm's custom profile fields and everyone's values of them, kept by the
 * `custom_profile_fields` event (the whole list) and `realm_user` updates carrying one
 * `custom_profile_field` (one user's one value; a null value clears it).
 */
export class ProfileFieldsState {
  /** In the realm's display order. */
  readonly fields = signal<readonly ProfileField[]>([]);
  readonly values = signal<ValuesByUser>(new Map());
  /** The URL patterns of the built-in external account kinds (`github`, ...): they come with /register only. */
  #defaultAccounts: Readonly<Record<string, { url_pattern?: string }>> = {};

  reset(initial: InitialState): void {
    this.#defaultAccounts = initial.realm_default_external_accounts ?? {};
    this.fields.value = this.#parseFields(initial.custom_profile_fields ?? []);
    const users = [...initial.realm_users, ...initial.realm_non_active_users];
    this.values.value = new Map(users.filter((user) => user.profile_data).map((user) => [user.user_id, valuesOf(user.profile_data!)]));
  }

  applyEvent(event: ServerEvent): void {
    if (event.type === 'custom_profile_fields') {
      this.fields.value = this.#parseFields(event.fields as WireProfileField[]);
      return;
    }
    if (event.type !== 'realm_user') return;
    const person = event.person as Partial<User> & { user_id: number; custom_profile_field?: { id: number; value: string | null; rendered_value?: string } };
    if (event.op === 'add' && person.profile_data) {
      this.values.value = new Map(this.values.value).set(person.user_id, valuesOf(person.profile_data));
    } else if (event.op === 'update' && person.custom_profile_field) {
      const change = person.custom_profile_field;
      const mine = new Map(this.values.value.get(person.user_id));
      if (change.value === null || change.value === '') mine.delete(change.id);
      else mine.set(change.id, fromWire({ value: change.value, rendered_value: change.rendered_value }));
      this.values.value = new Map(this.values.value).set(person.user_id, mine);
    }
  }

  /** A user's value of a field, if set. */
  value(userId: number, fieldId: number): ProfileValue | undefined {
    return this.values.value.get(userId)?.get(fieldId);
  }

  /** What a user's card lists: each field with a value worth showing, in the realm's order. */
  shownFor(userId: number): { field: ProfileField; shown: ShownValue }[] {
    return this.fields.value.flatMap((field) => {
      const value = this.value(userId, field.id);
      const shown = value && shownValue(field, value);
      return shown ? [{ field, shown }] : [];
    });
  }

  #parseFields(wire: readonly WireProfileField[]): ProfileField[] {
    return [...wire].sort((a, b) => a.order - b.order || a.id - b.id).map((field) => {
      const data = fieldData(field.field_data);
      return {
        id: field.id,
        name: field.name,
        type: field.type,
        hint: field.hint,
        order: field.order,
        editableByUser: field.editable_by_user ?? true,
        choices: field.type === FIELD_TYPE.SELECT ? choicesOf(data) : [],
        urlPattern: field.type === FIELD_TYPE.EXTERNAL_ACCOUNT ? this.#urlPattern(data) : null,
      };
    });
  }

  /** A custom account brings its own pattern; a built-in kind's comes from the realm's defaults. */
  #urlPattern(data: Record<string, unknown>): string | null {
    const pattern = data.subtype === 'custom' ? data.url_pattern : typeof data.subtype === 'string' ? this.#defaultAccounts[data.subtype]?.url_pattern : undefined;
    return typeof pattern === 'string' && pattern.includes('%(username)s') ? pattern : null;
  }
}

/**
 * One value as the card shows it, as upstream's user card does; null for a value that shows
 * nothing (empty, or a choice that no longer exists).
 */
export function shownValue(field: ProfileField, { value, renderedValue }: ProfileValue): ShownValue | null {
  if (!value) return null;
  switch (field.type) {
    case FIELD_TYPE.SHORT_TEXT:
    case FIELD_TYPE.LONG_TEXT:
      return renderedValue ? { kind: 'html', html: renderedValue } : { kind: 'text', text: value };
    case FIELD_TYPE.SELECT: {
      const choice = field.choices.find((c) => c.key === value);
      return choice ? { kind: 'text', text: choice.text } : null;
    }
    case FIELD_TYPE.DATE:
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? { kind: 'date', date: value } : { kind: 'text', text: value };
    case FIELD_TYPE.URL:
      return webLink(value, value);
    case FIELD_TYPE.USER: {
      const userIds = personIds(value);
      return userIds.length > 0 ? { kind: 'people', userIds } : null;
    }
    case FIELD_TYPE.EXTERNAL_ACCOUNT:
      // A function as replacement: `$` in the value stays itself.
      return field.urlPattern ? webLink(value, field.urlPattern.replace('%(username)s', () => value)) : { kind: 'text', text: value };
    default:
      return { kind: 'text', text: value };
  }
}

/** A Person field's value: the JSON list of user ids the server keeps as text. */
export function personIds(value: string | undefined): number[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/** Only http(s) addresses become links: anything else (`javascript:`, ...) stays text. */
function webLink(text: string, href: string): ShownValue {
  if (!URL.canParse(href)) return { kind: 'text', text };
  const url = new URL(href);
  return url.protocol === 'http:' || url.protocol === 'https:' ? { kind: 'link', text, href: url.href } : { kind: 'text', text };
}

function fromWire(wire: WireProfileValue): ProfileValue {
  return wire.rendered_value === undefined ? { value: wire.value } : { value: wire.value, renderedValue: wire.rendered_value };
}

function valuesOf(data: Readonly<Record<string, WireProfileValue>>): Map<number, ProfileValue> {
  return new Map(Object.entries(data).map(([id, value]) => [Number(id), fromWire(value)]));
}

/** `field_data` is JSON text, '' for the types that have none. */
function fieldData(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A list of options' `{key: {text, order}}`, in the order upstream shows them. */
function choicesOf(data: Record<string, unknown>): { key: string; text: string }[] {
  return Object.entries(data)
    .flatMap(([key, choice]) => {
      const { text, order } = (choice ?? {}) as { text?: unknown; order?: unknown };
      return typeof text === 'string' ? [{ key, text, order: Number(order) || 0 }] : [];
    })
    .sort((a, b) => a.order - b.order)
    .map(({ key, text }) => ({ key, text }));
}
