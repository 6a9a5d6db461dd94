import { useSignalEffect } from '@preact/signals';
import type { RealmState } from '../../state/realm-state.ts';

/** Upstream's `color_scheme`: 1 automatic (the system's), 2 dark, 3 light. */
export function useThemeFromSettings(realm: RealmState): void {
  useSignalEffect(() => {
    const scheme = realm.settings.value.color_scheme;
    const root = document.documentElement;
    if (scheme === 2) root.dataset.theme = 'dark';
    else if (scheme === 3) root.dataset.theme = 'light';
    else delete root.dataset.theme;
  });
}
