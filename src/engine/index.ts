/**
 * The package's public entry: the transport-free engine and what is needed to build, clock and
 * fill one. Hosts live beside it: `offline-realm/node` (HTTP server) and `offline-realm/msw`;
 * the scenario format is `offline-realm/scenario`.
 */
import './platform/supported-node.ts';
export { API_PREFIX, Engine, type EngineOptions, type RequestLogEntry } from './engine.ts';
export { type Clock, ManualClock, systemClock } from './clock/clock.ts';
export {
  parseScenario,
  type Scenario,
  type ScenarioChannel,
  ScenarioError,
  type ScenarioMessage,
  type ScenarioUser,
} from './scenario/scenario-schema.ts';
export { type DatabaseOptions, RealmDatabase } from './storage/database.ts';
export {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  exportRealm,
  importRealm,
  type RealmArchive,
  RealmArchiveError,
} from './realm-archive/realm-archive.ts';
