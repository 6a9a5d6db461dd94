/**
 * The package's worker files (built by scripts/browser-bundles.ts), as `npx offline-realm init
 * DIR` writes them into a project's public folder and `startRealm` finds them by default.
 */
export const SERVICE_WORKER_FILE = 'offline-realm-sw.js';
export const ENGINE_WORKER_FILE = 'offline-realm-engine.js';
export const WORKER_FILES = [SERVICE_WORKER_FILE, ENGINE_WORKER_FILE] as const;
