import type { CallerScope } from '../services/action-scope.ts';
import { USER_SETTING_DEFAULTS } from '../settings/user-settings.ts';
import { activeUserIds } from './profile-fields.ts';
import { checkNotificationSettingValues } from './user-settings.ts';

/**
 * PATCH /realm/user_settings_defaults: the personal settings new accounts start with. Existing
 * accounts keep theirs, as upstream. Only a value that differs from the current default is
 * stored and announced, one `realm_user_settings_defaults` event per setting, to every user.
 */
export async function updateRealmUserDefaults(scope: CallerScope, settings: Record<string, unknown>): Promise<void> {
  checkNotificationSettingValues(settings);
  const stored = scope.directory.realm.user_settings_defaults ?? {};
  const current = { ...USER_SETTING_DEFAULTS, ...stored };
  const changed = Object.entries(settings).filter(([name, value]) => current[name] !== value);
  if (changed.length === 0) return;
  await scope.db.realm.update(1, { user_settings_defaults: { ...stored, ...Object.fromEntries(changed) } });
  const users = activeUserIds(scope.directory);
  for (const [property, value] of changed) {
    scope.notify({ event: { type: 'realm_user_settings_defaults', op: 'update', property, value }, users });
  }
}
