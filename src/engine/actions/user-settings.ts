import type { LoginLimits } from '../services/login-limits.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from '../auth/passwords.ts';
import { badRequest } from '../errors/api-error.ts';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  LEGACY_DISPLAY_SETTINGS,
  LEGACY_NOTIFICATION_SETTINGS,
  USER_SETTING_DEFAULTS,
} from '../settings/user-settings.ts';
import { apiEmail } from '../permissions/email-visibility.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { nextId } from '../storage/database.ts';
import type { UserRow } from '../storage/rows.ts';
import { activeUserIds } from './profile-fields.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { checkNewEmail, renameUser } from './users.ts';
import { forgetDrafts } from './drafts.ts';

/** The languages upstream offers for `default_language` (its translated locales). */
const LANGUAGE_CODES = [
  'ar', 'be', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'en_GB', 'eo', 'es', 'fa', 'fi', 'fr', 'gl',
  'gu', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'lt', 'lv', 'ml', 'mn', 'nl', 'pl', 'pt', 'pt_BR', 'pt_PT', 'ro',
  'ru', 'si', 'sr', 'sv', 'ta', 'te', 'tl', 'tr', 'uk', 'uz', 'vi', 'zh-hans', 'zh-hant',
];
const MAX_EMAIL_BATCHING_SECONDS = 7 * 24 * 60 * 60;

export interface OwnSettingsChanges {
  fullName?: string;
  email?: string;
  timezone?: string;
  /** A new password hash, made (and the old password checked) before the transaction. */
  passwordHash?: string;
  /** Personal settings (keys of USER_SETTING_DEFAULTS), already type-checked. */
  settings: Record<string, unknown>;
}

/**
 * PATCH /settings: the caller's own settings. Values are checked first, then applied; only a
 * value that differs from the stored one is written and announced (`user_settings`, plus the
 * legacy events for clients without `user_settings_object`).
 */
export async function updateOwnSettings(scope: CallerScope, changes: OwnSettingsChanges): Promise<void> {
  const { directory, caller: user } = scope;
  checkSettingValues(changes);
  const email = changes.email?.trim();
  const emailChanges = email !== undefined && email !== user.email;
  if (emailChanges) checkNewEmail(directory, email);

  if (changes.passwordHash !== undefined) await scope.db.users.update(user.id, { password_hash: changes.passwordHash });
  if (emailChanges) await recordEmailChangeMail(scope, directory, user, email);
  if (changes.fullName !== undefined && changes.fullName !== user.full_name) {
    await renameUser(scope, directory, user, changes.fullName);
  }

  const current = { ...USER_SETTING_DEFAULTS, ...user.settings };
  const changed = Object.entries(changes.settings).filter(([name, value]) => current[name] !== value);
  if (changed.length > 0) {
    await scope.db.users.update(user.id, { settings: { ...user.settings, ...Object.fromEntries(changed) } });
  }
  for (const [name, value] of changed) notifySetting(scope, directory, user, name, value);
  if (changes.settings.enable_drafts_synchronization === false) await forgetDrafts(scope.db, user.id);

  if (changes.timezone !== undefined && changes.timezone !== user.timezone) {
    await scope.db.users.update(user.id, { timezone: changes.timezone });
    notifySetting(scope, directory, user, 'timezone', changes.timezone);
    scope.notify({
      event: {
        type: 'realm_user',
        op: 'update',
        person: { email: apiEmail(directory.realm, user, user), user_id: user.id, timezone: changes.timezone },
      },
      users: activeUserIds(directory),
    });
  }
}

/**
 * What PATCH /settings does before its transaction, since WebCrypto would let the transaction
 * commit early: the values checked (so their errors come first, as upstream), then, for a
 * password change, the old password verified and the new one hashed.
 */
export async function prepareOwnSettings(
  user: UserRow,
  changes: OwnSettingsChanges,
  password: { old?: string; new?: string },
  iterations: number | undefined,
  loginLimits: LoginLimits,
): Promise<OwnSettingsChanges> {
  checkSettingValues(changes);
  if (password.new === undefined) return changes;
  // The old password is a login attempt on the account, limited as logins are (upstream).
  const wait = loginLimits.secondsToWait(user.email_key, null);
  if (wait > 0) throw badRequest(`You're making too many attempts! Try again in ${Math.floor(wait)} seconds.`);
  loginLimits.admit(user.email_key, null);
  const stored = user.password_hash;
  const old = password.old;
  // A password longer than any the realm accepts cannot be the right one: it is not hashed.
  if (stored === null || old === undefined || old.length > PASSWORD_MAX_LENGTH || !(await verifyPassword(old, stored))) {
    throw badRequest('Wrong password!');
  }
  loginLimits.succeeded(user.email_key);
  if (password.new.length < PASSWORD_MIN_LENGTH) throw badRequest('New password is too weak!');
  if (password.new.length > PASSWORD_MAX_LENGTH) throw badRequest('The password is too long.');
  return { ...changes, passwordHash: await hashPassword(password.new, iterations) };
}

/** The checks upstream makes beyond each parameter's type. */
function checkSettingValues(changes: OwnSettingsChanges): void {
  const language = changes.settings.default_language;
  if (language !== undefined && !LANGUAGE_CODES.includes(language as string)) throw badRequest('Invalid default_language');
  checkNotificationSettingValues(changes.settings);
  if (changes.timezone !== undefined && !isTimeZone(changes.timezone)) throw badRequest('Not a recognized time zone');
}

/** Upstream's check_settings_values: the notification sound and the email batching period. */
export function checkNotificationSettingValues(settings: Record<string, unknown>): void {
  const { notification_sound: sound } = settings;
  const batching = settings.email_notifications_batching_period_seconds;
  if (sound !== undefined && sound !== 'none' && !AVAILABLE_NOTIFICATION_SOUNDS.includes(sound as string)) {
    throw badRequest(`Invalid notification sound '${String(sound)}'`);
  }
  if (typeof batching === 'number' && (batching <= 0 || batching > MAX_EMAIL_BATCHING_SECONDS)) {
    throw badRequest(`Invalid email batching period: ${batching} seconds`);
  }
}

/** An IANA time zone name (or "" for none), as the runtime's time zone database knows it. */
function isTimeZone(name: string): boolean {
  if (name === '') return true;
  if (!/^[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The language's own name for itself, which upstream sends along with `default_language`. */
function languageName(code: string): string {
  const tag = code.replace('_', '-');
  return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? code;
}

function notifySetting(scope: ActionScope, directory: RealmDirectory, user: UserRow, name: string, value: unknown): void {
  const language = name === 'default_language' ? { language_name: languageName(value as string) } : {};
  const users = [user.id];
  scope.notify({ event: { type: 'user_settings', op: 'update', property: name, value, ...language }, users });
  const email = apiEmail(directory.realm, user, user);
  if (LEGACY_NOTIFICATION_SETTINGS.includes(name)) {
    scope.notify({ event: { type: 'update_global_notifications', user: email, notification_name: name, setting: value }, users });
  }
  if (LEGACY_DISPLAY_SETTINGS.includes(name)) {
    scope.notify({ event: { type: 'update_display_settings', user: email, setting_name: name, setting: value, ...language }, users });
  }
}

/**
 * An email change waits for the new address to be confirmed, as upstream: the confirmation
 * mail is recorded in `outgoing_mail` (never sent) and the address stays as it is.
 */
async function recordEmailChangeMail(scope: ActionScope, directory: RealmDirectory, user: UserRow, email: string): Promise<void> {
  const { realm } = directory;
  await scope.db.outgoing_mail.add({
    id: await nextId(scope.db, 'outgoing_mail'),
    to: email,
    subject: `Verify your new email address for ${realm.name}`,
    body: [
      `Hello ${user.full_name},`,
      '',
      `We received a request to change the email address for your account on ${realm.name} (${realm.host})`,
      `from ${user.email} to ${email}.`,
    ].join('\n'),
    sent_at: scope.now,
    kind: 'email_change',
  });
}
