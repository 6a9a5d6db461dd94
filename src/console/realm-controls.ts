import type { EngineConnection } from '../browser-host/page/engine-connection.ts';
import { downloadArchive, readArchiveFile } from './archive-file.ts';
import { el } from './element.ts';
import { SCENARIOS } from './scenario-catalog.ts';
import { recordedScenario, recordScenario } from './scenario-record.ts';

type Outcome = 'working' | 'done' | 'failed';

/**
 * The console's realm buttons: reset to the scenario the realm came from, load another
 * scenario, export the realm to a file and import one back. Anything that replaces the realm
 * asks first; `onReplaced` then redraws the page.
 */
export class RealmControls {
  readonly element: HTMLElement;
  readonly #engine: EngineConnection;
  readonly #onReplaced: () => Promise<void>;
  readonly #reset: HTMLButtonElement;
  readonly #load: HTMLSelectElement;
  readonly #export: HTMLButtonElement;
  readonly #import: HTMLInputElement;
  readonly #notice: HTMLElement;

  constructor(engine: EngineConnection, onReplaced: () => Promise<void>) {
    this.#engine = engine;
    this.#onReplaced = onReplaced;
    this.#reset = el('button', { type: 'button', name: 'reset' });
    this.#load = el('select', { name: 'scenario', title: 'Replace the realm with a scenario from /scenarios/' }, [
      el('option', { value: '', disabled: true, selected: true }, ['Load scenario…']),
      ...SCENARIOS.map(({ name, title }) => el('option', { value: name }, [title])),
    ]);
    this.#export = el('button', { type: 'button', name: 'export' }, ['Export realm']);
    this.#import = el('input', { type: 'file', name: 'archive', accept: '.json,application/json' });
    this.#notice = el('p', { className: 'notice', role: 'status' });
    this.element = el('section', { className: 'controls' }, [
      el('div', { className: 'toolbar' }, [
        this.#reset,
        this.#load,
        this.#export,
        el('label', { className: 'button' }, ['Import realm…', this.#import]),
      ]),
      this.#notice,
    ]);
    this.#showRecordedScenario();

    this.#reset.onclick = () => void this.#loadScenario(recordedScenario(), 'Reset to');
    this.#load.onchange = () => {
      const name = this.#load.value;
      this.#load.value = '';
      void this.#loadScenario(name, 'Loaded');
    };
    this.#export.onclick = () => void this.#exportRealm();
    this.#import.onchange = () => {
      const file = this.#import.files?.[0];
      // Cleared, so that choosing the same file again imports it again.
      this.#import.value = '';
      if (file) void this.#importRealm(file);
    };
  }

  async #loadScenario(name: string, verb: string): Promise<void> {
    if (!confirm(`Replace the whole realm with the scenario “${name}”? Export it first to keep it.`)) return;
    await this.#run(async () => {
      await this.#engine.loadScenario({ name });
      recordScenario(name);
      this.#showRecordedScenario();
      await this.#onReplaced();
      return `${verb} the scenario “${name}”.`;
    }, 'The realm was not replaced');
  }

  async #exportRealm(): Promise<void> {
    await this.#run(async () => {
      const archive = await this.#engine.exportRealm();
      const host = (archive.tables.realm[0]?.host ?? 'realm').replace(/[^\w.-]/g, '_');
      const file = downloadArchive(archive, host);
      return `Exported ${archive.tables.messages.length} messages and ${archive.tables.users.length} users to ${file}.`;
    }, 'Export failed');
  }

  async #importRealm(file: File): Promise<void> {
    if (!confirm(`Replace the whole realm with the one in ${file.name}? Export it first to keep it.`)) return;
    await this.#run(async () => {
      await this.#engine.importRealm(await readArchiveFile(file));
      await this.#onReplaced();
      return `Imported the realm from ${file.name}.`;
    }, 'The realm was not replaced');
  }

  /** One action at a time; its outcome stays in the notice line (`data-outcome`) until the next. */
  async #run(action: () => Promise<string>, failure: string): Promise<void> {
    this.element.inert = true;
    this.#show('working', 'Working…');
    try {
      this.#show('done', await action());
    } catch (error) {
      this.#show('failed', `${failure}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.element.inert = false;
    }
  }

  #show(outcome: Outcome, text: string): void {
    this.#notice.dataset.outcome = outcome;
    this.#notice.textContent = text;
  }

  #showRecordedScenario(): void {
    const name = recordedScenario();
    this.#reset.textContent = `Reset to “${name}”`;
    this.#reset.title = `Replace the realm with a fresh copy of /scenarios/${name}.json`;
  }
}
