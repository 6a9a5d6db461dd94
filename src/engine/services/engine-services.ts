import type { LoginLimits } from './login-limits.ts';
import type { Clock } from '../clock/clock.ts';
import type { EventQueues } from '../events/event-queues.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { UploadStore } from '../storage/upload-store.ts';
import type { TemporaryUploadUrls } from './temporary-upload-urls.ts';
import type { WriteJournal } from './action-scope.ts';

/**
 * What the engine's parts use of it: its database, clock, event queues and scheduler. They
 * take this rather than the `Engine` class, which only hosts and `engine.ts` import, so no
 * module below the engine depends back on the whole of it (no import cycle through it).
 */
export interface EngineServices {
  readonly db: RealmDatabase;
  readonly clock: Clock;
  readonly queues: EventQueues;
  /** Uploaded files' bytes (their metadata is the `attachments` table). */
  readonly uploads: UploadStore;
  /** Live tokens of temporary file URLs. */
  readonly temporaryUploadUrls: TemporaryUploadUrls;
  /** Sends scheduled messages when due; woken when the realm is replaced under it. */
  readonly scheduler: { wake(): void };
  /** Password login attempts per username and client address (rate limits, in memory). */
  readonly loginLimits: LoginLimits;
  /** PBKDF2 iterations for new password hashes; tests lower it to stay fast. */
  readonly passwordIterations: number | undefined;
  /** Records each action's notices inside its transaction (the sync hub's change feed); absent: none. */
  readonly writeJournal?: WriteJournal;
  /** Seconds since the epoch, from the engine's clock. */
  nowSeconds(): number;
}
