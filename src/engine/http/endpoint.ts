import { z } from 'zod';
import type { ActionScope, CallerScope, MemoryScope, ReadScope } from '../services/action-scope.ts';
import { readSnapshot, runAction, writesInFlightOn } from '../services/run-action.ts';
import { type CallerKind, requireCallerKind } from '../permissions/caller-kinds.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmRow, UserRow } from '../storage/rows.ts';
import { ApiError, missingArgument } from '../errors/api-error.ts';
import { VAR } from './param-types.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** 'none': no auth read; 'optional': read when given; the rest: Basic auth, then `CallerKind`. */
export type AuthKind = 'none' | 'optional' | CallerKind;

/** The caller an endpoint of this auth kind is given. */
export type CallerOf<A extends AuthKind> = A extends 'none' ? null : A extends 'optional' ? UserRow | null : UserRow;

/** What a `handler` endpoint sees; `read` and `write` endpoints get a scope instead. */
export interface RequestContext {
  engine: EngineServices;
  request: Request;
  /** The authenticated caller; endpoints with `auth: 'none'` must use `maybeUser`. */
  user: UserRow;
  maybeUser: UserRow | null;
  realm: RealmRow;
  /** The sending client's name (`client` parameter or User-Agent), as upstream records it. */
  clientName: string;
  /** The files of a multipart body (only an upload reads them). */
  files: File[];
  /** The network address the host received the request from; null where the host has none. */
  clientAddress: string | null;
  /** Runs inside a `write` endpoint's transaction after it succeeded (`HandleOptions.inTransaction`). */
  inTransaction?: TransactionHook;
}

/** What a host adds to a write endpoint's transaction, with the endpoint's answer. */
export type TransactionHook = (scope: ActionScope, answer: Record<string, unknown> | Response) => Promise<void>;

type Params<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;
type Answer = Record<string, unknown> | Response;

export type EndpointHandler<S extends z.ZodRawShape> = (ctx: RequestContext, params: Params<S>) => Promise<Answer>;

interface EndpointBase<S extends z.ZodRawShape, A extends AuthKind> {
  method: HttpMethod;
  /** Path below /api/v1, with `{name}` segments that join the parameters. */
  path: string;
  /** Default 'user'. Checked before the endpoint runs. */
  auth?: A;
  params: S;
  /** Legacy names accepted for a parameter, e.g. `{subject: 'topic'}`. */
  aliases?: Record<string, string>;
}

/**
 * An endpoint says how it touches the realm, and the framework provides it:
 * - `read`: one read-only snapshot, with the directory and the caller read in it; with
 *   `fromMemory`, first an answer from the engine's caches alone, taken when they show the
 *   committed state and no write is in flight (no transaction at all); undefined: the snapshot;
 * - `write`: one read-write transaction (an action's scope); its events are delivered on commit;
 * - `handler`: neither, for what must not hold a transaction (a long-poll, in-memory queues).
 */
export type EndpointSpec<S extends z.ZodRawShape, A extends AuthKind, P = undefined> = EndpointBase<S, A> &
  (
    | {
        read(scope: ReadScope<CallerOf<A>>, params: Params<S>): Promise<Answer>;
        fromMemory?(scope: MemoryScope<CallerOf<A>>, params: Params<S>): Answer | undefined;
        write?: never;
        handler?: never;
        prepare?: never;
      }
    | {
        /** Work that must not run inside the transaction (password hashing), done just before it. */
        prepare?(ctx: RequestContext, params: Params<S>): Promise<P>;
        write(scope: CallerScope<CallerOf<A>>, params: Params<S>, prepared: P): Promise<Answer>;
        read?: never;
        fromMemory?: never;
        handler?: never;
      }
    | { handler: EndpointHandler<S>; read?: never; fromMemory?: never; write?: never; prepare?: never }
  );

export interface Endpoint {
  method: HttpMethod;
  path: string;
  auth: AuthKind;
  /** The declared parameter schemas (read by tools that walk the router's table, such as the hostile-input fuzzer). */
  params: Readonly<z.ZodRawShape>;
  parse(raw: Map<string, string>): { params: Record<string, unknown>; ignored: string[] };
  run(ctx: RequestContext, params: Record<string, unknown>): Promise<Answer>;
}

/** Parameters every endpoint accepts without reporting them as ignored. */
const GLOBAL_PARAMS = new Set(['client']);

export function defineEndpoint<S extends z.ZodRawShape, A extends AuthKind = 'user', P = undefined>(
  spec: EndpointSpec<S, A, P>,
): Endpoint {
  const schema = z.object(spec.params);
  const aliases = spec.aliases ?? {};
  const required = Object.keys(spec.params).filter(
    (key) => !(spec.params[key] as z.ZodType).safeParse(undefined).success,
  );

  return {
    method: spec.method,
    path: spec.path,
    auth: spec.auth ?? 'user',
    params: spec.params,
    run: runnerFor(spec as EndpointSpec<S, AuthKind, unknown>),
    parse(raw) {
      const values: Record<string, string> = {};
      const ignored: string[] = [];
      for (const [name, value] of raw) {
        const canonical = aliases[name];
        if (canonical !== undefined) {
          if (raw.has(canonical)) {
            throw new ApiError(`Can't decide between '${canonical}' and '${name}' arguments`, {
              code: 'REQUEST_CONFUSING_VAR',
              extra: { var_name1: canonical, var_name2: name },
            });
          }
          values[canonical] = value;
        } else if (name in spec.params) {
          values[name] = value;
        } else if (!GLOBAL_PARAMS.has(name)) {
          ignored.push(name);
        }
      }
      for (const name of required) {
        if (values[name] === undefined) throw missingArgument(name);
      }
      const result = schema.safeParse(values, { reportInput: true });
      if (!result.success) throw new ApiError(describeIssue(result.error.issues[0]));
      return { params: result.data as Record<string, unknown>, ignored: ignored.sort() };
    },
  };
}

/** Checks the caller's kind, then gives the endpoint the snapshot or transaction it asked for. */
function runnerFor<S extends z.ZodRawShape>(spec: EndpointSpec<S, AuthKind, unknown>): Endpoint['run'] {
  const auth = spec.auth ?? 'user';
  const run = runnerOfKind(spec);
  if (auth === 'none' || auth === 'optional' || auth === 'user') return run;
  return (ctx, params) => {
    requireCallerKind(ctx.user, auth);
    return run(ctx, params);
  };
}

function runnerOfKind<S extends z.ZodRawShape>(spec: EndpointSpec<S, AuthKind, unknown>): Endpoint['run'] {
  const { read, fromMemory, write, handler, prepare } = spec;
  if (handler) return (ctx, params) => (refuseHook(ctx), handler(ctx, params as Params<S>));
  if (read) {
    return async (ctx, params) => {
      refuseHook(ctx);
      const memory = fromMemory && memoryScope(ctx);
      return (memory && fromMemory(memory, params as Params<S>)) ?? callerRead(ctx, ctx.maybeUser, (scope) => read(scope, params as Params<S>));
    };
  }
  if (!write) throw new Error('an endpoint needs read, write or handler');
  return async (ctx, params) => {
    const prepared = prepare ? await prepare(ctx, params as Params<S>) : undefined;
    return runAction(ctx.engine, async (scope) => {
      const directory = await RealmDirectory.load(scope.db);
      const caller = callerIn(directory, ctx.maybeUser);
      const answer = await write({ ...scope, directory, caller, clientName: ctx.clientName }, params as Params<S>, prepared);
      if (ctx.inTransaction) await ctx.inTransaction(scope, answer);
      return answer;
    });
  };
}

/** A transaction hook promises atomicity only a `write` endpoint can keep. */
function refuseHook(ctx: RequestContext): undefined {
  if (ctx.inTransaction) throw new ApiError('This endpoint cannot be part of a synced change', { code: 'SYNC_UNSUPPORTED_ACTION' });
  return undefined;
}

/**
 * For `handler` endpoints that do work around one action (an upload's bytes, written before and
 * deleted after): runs `body` as a `write` endpoint would, in one transaction with the caller's scope.
 */
export function callerAction<T>(ctx: RequestContext, body: (scope: CallerScope) => Promise<T>): Promise<T> {
  return runAction(ctx.engine, async (scope) => {
    const directory = await RealmDirectory.load(scope.db);
    return body({ ...scope, directory, caller: callerIn(directory, ctx.user), clientName: ctx.clientName });
  });
}

/**
 * For `handler` endpoints that read the realm around other work (the checks before an upload's
 * bytes are stored): runs `body` in one snapshot as a `read` endpoint would, `caller` read in it.
 */
export function callerRead<T, C extends UserRow | null>(ctx: RequestContext, caller: C, body: (scope: ReadScope<C>) => Promise<T>): Promise<T> {
  return readSnapshot(ctx.engine, async (db) => {
    const directory = await RealmDirectory.load(db);
    return body({ db, directory, caller: callerIn(directory, caller) as C, clientName: ctx.clientName, now: ctx.engine.nowSeconds() });
  });
}

/** The caches' view for `fromMemory`, when they show the committed state and no write is in flight (a read begun now would wait for it). */
function memoryScope(ctx: RequestContext): MemoryScope<UserRow | null> | undefined {
  const { engine } = ctx;
  if (writesInFlightOn(engine.db)) return undefined;
  const directory = RealmDirectory.current(engine.db);
  return directory && { caches: engine.db, directory, caller: callerIn(directory, ctx.maybeUser), clientName: ctx.clientName, now: engine.nowSeconds() };
}

/** The caller as the transaction reads it (a write earlier in the same request may have changed it). */
const callerIn = (directory: RealmDirectory, user: UserRow | null): UserRow =>
  (user && directory.users.get(user.id)) ?? (user as UserRow);

/** `narrow`, `narrow[0]`, `subscription_data[0]["stream_id"]`: how upstream names a nested value. */
function varName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path;
  return String(head) + rest.map((key) => (typeof key === 'number' ? `[${key}]` : `["${String(key)}"]`)).join('');
}

const TYPE_WORDS: Record<string, string> = {
  boolean: 'a boolean',
  int: 'an integer',
  number: 'an integer',
  string: 'a string',
  array: 'a list',
  object: 'a dict',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  const name = varName(issue.path);
  const fill = (message: string) => message.replaceAll(VAR, name);
  if (issue.message.includes(VAR)) {
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${name} is missing`;
    return fill(issue.message);
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${name} is missing`;
      return `${name} is not ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`}`;
    case 'too_big':
      if (issue.origin === 'array') return fill(issue.message);
      return issue.origin === 'string'
        ? `${name} is too long (limit: ${String(issue.maximum)} characters)`
        : `${name} is too large`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${name} cannot be blank`;
      return `${name} is too small`;
    case 'unrecognized_keys':
      return `Argument "${issue.keys[0]}" at ${name} is unexpected`;
    case 'invalid_union': {
      // A list past its bound is named as such, whichever alternative it was read as.
      const tooLong = issue.errors.flat().find((nested) => nested.code === 'too_big' && nested.origin === 'array');
      return tooLong ? describeIssue({ ...tooLong, path: [...issue.path, ...tooLong.path] }) : `Invalid ${name}`;
    }
    case 'invalid_value':
    case 'invalid_format':
      return `Invalid ${name}`;
    default:
      return fill(issue.message);
  }
}
