import fc from 'fast-check';
import type { Endpoint } from '../../../src/engine/http/endpoint.ts';
import { envelopeProblem } from './envelope.ts';
import { hostileRaw, paramArbitrary, validParamArbitrary } from './param-arbitrary.ts';
import { type RawRequest, type RealmState, type Role, ROLES, RoleRealm } from './role-realm.ts';

/** What one run of the fuzzer saw; `problems` lists every broken rule with the request that broke it. */
export interface FuzzReport {
  requests: number;
  serverErrors: number;
  refusals: number;
  refusalsThatChangedState: number;
  /** Endpoints (METHOD path) that answered at least one fuzzed request with a success. */
  endpointsReached: Set<string>;
  maxLatencyMs: number;
  slowest: { ms: number; request: string }[];
  problems: string[];
}

/** Successes after which the scenario's realm is put back. */
const SUCCESSES_PER_REALM = 200;

/** Parameter names a careless or hostile client adds beside the declared ones. */
const EXTRA_NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'client', 'api_key', ''];

/** The fuzzed parts of one request: who sends it, the declared parameters, extra ones, how the body is encoded. */
export interface RequestParts {
  role: Role;
  values: Record<string, string | undefined>;
  extra: [string, string][];
  encoding: RawRequest['encoding'];
}

/**
 * The declared parameters: all valid-ish (to reach the action), all valid-ish but one hostile
 * (to reach the check of that one), or anything.
 */
function valuesArbitrary(endpoint: Endpoint): fc.Arbitrary<Record<string, string | undefined>> {
  const params = Object.entries(endpoint.params);
  const valid = fc.record(Object.fromEntries(params.map(([name, schema]) => [name, validParamArbitrary(name, schema)])));
  const mixed = fc.record(Object.fromEntries(params.map(([name, schema]) => [name, paramArbitrary(name, schema)])));
  if (params.length === 0) return valid;
  const oneHostile = fc
    .tuple(valid, fc.constantFrom(...params.map(([name]) => name)), hostileRaw())
    .map(([values, name, hostile]) => ({ ...values, [name]: hostile }));
  return fc.oneof(valid, oneHostile, mixed);
}

/** One fuzzed request to `endpoint`: a role, its parameters (valid, hostile or mixed), extra names and a body encoding. */
export function requestArbitrary(endpoint: Endpoint): fc.Arbitrary<RequestParts> {
  const values = valuesArbitrary(endpoint);
  return fc.record({
    role: fc.constantFrom(...ROLES),
    values,
    extra: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_NAMES), fc.string({ maxLength: 12 })), hostileRaw()), { maxLength: 3 }),
    encoding: fc.constantFrom('urlencoded', 'urlencoded', 'urlencoded', 'multipart', 'none') as fc.Arbitrary<RawRequest['encoding']>,
  });
}

/** Fills `{name}` path segments from the values; the rest become parameters. */
export function toRawRequest(endpoint: Endpoint, parts: RequestParts): RawRequest {
  const inPath = new Set<string>();
  const path = endpoint.path.replace(/\{(\w+)\*?\}/g, (_, name: string) => {
    inPath.add(name);
    // A URL cannot carry a lone surrogate; what a client could send is its replacement character.
    return encodeURIComponent((parts.values[name] ?? '').replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));
  });
  const params: [string, string][] = [];
  for (const [name, value] of Object.entries(parts.values)) if (!inPath.has(name) && value !== undefined) params.push([name, value]);
  params.push(...parts.extra);
  return { method: endpoint.method, path, params, role: parts.role, encoding: parts.encoding };
}

const shorten = (value: string) => (value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}... (${value.length} chars)` : JSON.stringify(value));
export const describe = (raw: RawRequest) =>
  `${raw.role} ${raw.method} ${shorten(raw.path)} [${raw.encoding}] ${raw.params.map(([name, value]) => `${shorten(name)}=${shorten(value)}`).join(' ')}`;

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join();

/**
 * Sends `numRuns` fuzzed requests to each endpoint, one at a time, as every role, checking each
 * answer's envelope, that a refusal changed no row and queued no event, and that nothing
 * reached `Object.prototype`. A success that changed an account the callers rely on (a key, a
 * role, a deactivation) puts the scenario's realm back.
 */
export async function fuzzRoutes(
  endpoints: readonly Endpoint[],
  options: { numRuns: number; seed: number; /** Endpoints to add to the router first (the fuzzer's own test). */ extraRoutes?: Endpoint[] },
): Promise<FuzzReport> {
  const report: FuzzReport = {
    requests: 0,
    serverErrors: 0,
    refusals: 0,
    refusalsThatChangedState: 0,
    endpointsReached: new Set(),
    maxLatencyMs: 0,
    slowest: [],
    problems: [],
  };
  const realm = await RoleRealm.create();
  for (const endpoint of options.extraRoutes ?? []) realm.realm.engine.router.add(endpoint);
  const cleanPrototype = prototypeKeys();
  let before: RealmState = await realm.state();
  let callers = await realm.callerFingerprint();
  let successesSinceReset = 0;

  const send = async (endpoint: Endpoint, raw: RawRequest) => {
    const watchers = await realm.watchers();
    const eventIds = watchers.map((watcher) => watcher.nextEventId);
    const started = performance.now();
    const response = await realm.realm.engine.handle(realm.request(raw));
    const problem = await envelopeProblem(response);
    const ms = performance.now() - started;
    report.requests++;
    report.maxLatencyMs = Math.max(report.maxLatencyMs, ms);
    report.slowest = [...report.slowest, { ms, request: describe(raw) }].sort((a, b) => b.ms - a.ms).slice(0, 5);
    if (response.status >= 500) report.serverErrors++;
    if (problem) report.problems.push(`${problem}\n    from ${describe(raw)}`);
    if (prototypeKeys() !== cleanPrototype || ({} as Record<string, unknown>).polluted !== undefined) {
      report.problems.push(`Object.prototype changed\n    from ${describe(raw)}`);
    }
    const after = await realm.state();
    if (response.status >= 400) {
      report.refusals++;
      const changed = !RoleRealm.sameState(before, after) || watchers.some((watcher, i) => watcher.nextEventId !== eventIds[i]);
      if (changed) {
        report.refusalsThatChangedState++;
        report.problems.push(`a refusal (${response.status}) changed the realm or queued an event\n    from ${describe(raw)}`);
      }
    } else {
      report.endpointsReached.add(`${endpoint.method} ${endpoint.path}`);
    }
    before = after;
    if (response.status < 400) successesSinceReset++;
    const nowCallers = await realm.callerFingerprint();
    // Also every so many successes, so the realm (and the state compared per request) stays small.
    if (nowCallers !== callers || successesSinceReset >= SUCCESSES_PER_REALM) {
      successesSinceReset = 0;
      await realm.reset();
      before = await realm.state();
      callers = await realm.callerFingerprint();
    }
  };

  for (const [index, endpoint] of endpoints.entries()) {
    const property = fc.asyncProperty(requestArbitrary(endpoint), async (parts) => {
      await send(endpoint, toRawRequest(endpoint, parts));
    });
    const result = await fc.check(property, { numRuns: options.numRuns, seed: options.seed + index, endOnFailure: true });
    if (result.failed) report.problems.push(`${endpoint.method} ${endpoint.path}: the fuzzer itself failed: ${String(result.errorInstance)}`);
  }
  realm.realm.engine.close();
  return report;
}

/** The report as the failing test prints it. */
export function summarize(report: FuzzReport): string {
  return [
    `requests ${report.requests}, 5xx ${report.serverErrors}, refusals ${report.refusals}, refusals that changed state ${report.refusalsThatChangedState}`,
    `endpoints answering a success: ${report.endpointsReached.size}`,
    `max latency ${report.maxLatencyMs.toFixed(1)} ms; slowest:`,
    ...report.slowest.map(({ ms, request }) => `  ${ms.toFixed(1)} ms  ${request}`),
    ...report.problems.slice(0, 40).map((problem) => `PROBLEM ${problem}`),
    report.problems.length > 40 ? `... and ${report.problems.length - 40} more problems` : '',
  ].join('\n');
}
