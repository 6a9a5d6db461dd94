import type { ChatSession } from '../../state/session.ts';
import type { ComposerState } from '../../state/composer-state.ts';

/**
 * Tells the server that I am typing, as upstream's clients do: `start` at most once per
 * "started wait" period while keys come, `stop` after the "stopped wait" period of quiet or
 * when the message goes.
 */
export class TypingSender {
  readonly #session: ChatSession;
  readonly #composer: ComposerState;
  #started: { key: string; at: number; params: Record<string, unknown> } | null = null;
  #quietTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(session: ChatSession, composer: ComposerState) {
    this.#session = session;
    this.#composer = composer;
  }

  keystroke(): void {
    if (this.#session.realm.settings.value.send_private_typing_notifications === false && this.#composer.mode.value === 'dm') return;
    const recipient = this.#composer.recipient();
    // Nowhere to type to, or a channel I may not post in (the server would refuse the notice).
    if ('error' in recipient || (recipient.type === 'stream' && !this.#session.realm.mayPost(recipient.to))) return;
    const params: Record<string, unknown> =
      recipient.type === 'stream' ? { type: 'stream', stream_id: recipient.to, topic: recipient.topic } : { type: 'direct', to: recipient.to };
    const key = JSON.stringify(params);
    const { typingWaitMs, typingStopMs } = this.#session.realm.limits.value;
    if (this.#started && this.#started.key !== key) this.stop();
    if (!this.#started || Date.now() - this.#started.at > typingWaitMs) {
      this.#started = { key, at: Date.now(), params };
      void this.#session.api.post('/typing', { op: 'start', ...params } as Record<string, string>).catch(() => undefined);
    }
    if (this.#quietTimer) clearTimeout(this.#quietTimer);
    this.#quietTimer = setTimeout(() => this.stop(), typingStopMs);
  }

  stop(): void {
    if (this.#quietTimer) clearTimeout(this.#quietTimer);
    this.#quietTimer = null;
    const started = this.#started;
    this.#started = null;
    if (started) void this.#session.api.post('/typing', { op: 'stop', ...started.params } as Record<string, string>).catch(() => undefined);
  }
}
