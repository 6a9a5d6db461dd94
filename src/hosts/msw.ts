import '../engine/platform/supported-node.ts';
import './supported-msw.ts';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { http, type HttpHandler } from 'msw';
import { Engine, type EngineOptions } from '../engine/engine.ts';

/**
 * The in-process host: msw hands every `/api/v1/*` and `/user_uploads/*` request, on any
 * origin, to the engine, so a frontend's own tests (`setupServer(...handlersFor(engine))`) talk
 * to a real server in memory, uploaded files included.
 */
export function handlersFor(engine: Engine): HttpHandler[] {
  return [
    http.all('*/api/v1/*', ({ request }) => engine.handle(request)),
    http.all('*/user_uploads/*', ({ request }) => engine.handle(request)),
  ];
}

export type InProcessEngineOptions = Omit<EngineOptions, 'db' | 'indexedDB' | 'IDBKeyRange'>;

/**
 * An engine on its own in-memory IndexedDB, loaded with `scenario` (default: the demo realm,
 * public/scenarios/demo.json). Throws a ScenarioError naming the JSON path of a faulty scenario.
 */
export async function createInProcessEngine(scenario?: unknown, options: InProcessEngineOptions = {}): Promise<Engine> {
  const engine = await Engine.create({
    name: `offline-realm-${crypto.randomUUID()}`,
    ...options,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
  try {
    await engine.loadScenario(scenario ?? (await demoScenario()));
  } catch (error) {
    engine.close();
    throw error;
  }
  return engine;
}

async function demoScenario(): Promise<unknown> {
  // Imported only when needed, so callers with their own scenario do not bundle the demo.
  const module = await import('../../public/scenarios/demo.json', { with: { type: 'json' } });
  return module.default;
}
