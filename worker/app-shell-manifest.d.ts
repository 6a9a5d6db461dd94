/** Written into the built Service Worker by build/app-shell-manifest.ts. */
declare module 'virtual:app-shell-manifest' {
  export const APP_SHELL: import('../build/app-shell-manifest.ts').AppShellManifest | null;
}
