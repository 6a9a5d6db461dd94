import { Dexie, type Transaction } from 'dexie';
import type { EngineServices } from '../services/engine-services.ts';
import type { ScheduledMessageRow } from '../storage/rows.ts';
import { deliverScheduledMessage } from './deliver-scheduled.ts';
import { isReplicaDatabase } from '../storage/replica-database.ts';

/** The longest delay timers accept; a later delivery is re-checked when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Sends scheduled messages and reminders when their time comes, while the engine runs. One
 * timer (on the engine's clock) waits for the earliest pending row, found through the sparse
 * [pending+scheduled_delivery_timestamp] index; starting delivers at once whatever fell due
 * while the engine was not running. Work runs one step at a time on a single chain, so two
 * wake-ups never deliver the same row twice. Actions that add, move or remove a row cannot
 * reach the engine, so any committed write to the table wakes the scheduler.
 */
export class DeliveryScheduler {
  readonly #engine: EngineServices;
  #running = false;
  #timer: unknown = null;
  #work: Promise<void> = Promise.resolve();
  /** While a delivery runs, its own writes need no wake-up: the loop reads the table again after it. */
  #delivering = false;

  constructor(engine: EngineServices) {
    this.#engine = engine;
    this.#watchTable();
  }

  start(): void {
    this.#running = true;
    this.wake();
  }

  stop(): void {
    this.#running = false;
    this.#clearTimer();
  }

  /** Re-reads the earliest pending row: call after anything that adds, moves or removes one. */
  wake(): void {
    if (!this.#running) return;
    this.#work = this.#work.then(() => this.#deliverDue());
  }

  /** Resolves once the work queued so far is done (tests await it after advancing the clock). */
  settled(): Promise<void> {
    return this.#work;
  }

  async #deliverDue(): Promise<void> {
    this.#clearTimer();
    const { clock } = this.#engine;
    try {
      while (this.#running) {
        const next = await this.#earliestPending();
        if (!next || !this.#running) return;
        const waitMs = next.scheduled_delivery_timestamp * 1000 - clock.now();
        if (waitMs > 0) {
          this.#timer = clock.setTimeout(() => {
            this.#timer = null;
            this.wake();
          }, Math.min(waitMs, MAX_TIMER_MS));
          return;
        }
        this.#delivering = true;
        try {
          await deliverScheduledMessage(this.#engine, next.id);
        } finally {
          this.#delivering = false;
        }
      }
    } catch (error) {
      // A closed database (engine closing) ends the work quietly; anything else is a bug to see.
      if (this.#running) console.error('offline-realm: scheduled delivery stopped', error);
    }
  }

  /** Wakes once per transaction that wrote the table, when it commits (a rollback changed nothing). */
  #watchTable(): void {
    const seen = new WeakSet<Transaction>();
    const onWrite = (tx: Transaction): void => {
      if (seen.has(tx)) return;
      seen.add(tx);
      tx.on('complete', () => {
        if (!this.#delivering) this.wake();
      });
    };
    const table = this.#engine.db.scheduled_messages;
    // Hooks must return undefined: a value would become a generated key or extra changes.
    table.hook('creating', (_key, _row, tx) => void onWrite(tx));
    table.hook('updating', (_changes, _key, _row, tx) => void onWrite(tx));
    table.hook('deleting', (_key, _row, tx) => void onWrite(tx));
  }

  async #earliestPending(): Promise<ScheduledMessageRow | undefined> {
    const { db } = this.#engine;
    // A replica's rows are its hub's to deliver (the action checks again, in its transaction).
    if (await isReplicaDatabase(db)) return undefined;
    return db.scheduled_messages.where('[pending+scheduled_delivery_timestamp]').between([1, Dexie.minKey], [1, Dexie.maxKey]).first();
  }

  #clearTimer(): void {
    if (this.#timer === null) return;
    this.#engine.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
