import { z } from 'zod';
import type { Engine } from '../engine.ts';
import type { RealmRow, UserRow } from '../storage/rows.ts';
import { ApiError, missingArgument } from './api-error.ts';
import { VAR } from './param-types.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestContext {
  engine: Engine;
  request: Request;
  /** The authenticated caller; endpoints with `auth: 'none'` must use `maybeUser`. */
  user: UserRow;
  maybeUser: UserRow | null;
  realm: RealmRow;
  /** The sending client's name (`client` parameter or User-Agent), as upstream records it. */
  clientName: string;
}

export type EndpointHandler<S extends z.ZodRawShape> = (
  ctx: RequestContext,
  params: z.output<z.ZodObject<S>>,
) => Promise<Record<string, unknown> | Response>;

export interface EndpointSpec<S extends z.ZodRawShape> {
  method: HttpMethod;
  /** Path below /api/v1, with `{name}` segments that join the parameters. */
  path: string;
  /** 'user' (default): Basic auth required; 'none': no auth read; 'optional': read when given. */
  auth?: 'user' | 'none' | 'optional';
  params: S;
  /** Legacy names accepted for a parameter, e.g. `{subject: 'topic'}`. */
  aliases?: Record<string, string>;
  handler: EndpointHandler<S>;
}

export interface Endpoint {
  method: HttpMethod;
  path: string;
  auth: 'user' | 'none' | 'optional';
  parse(raw: Map<string, string>): { params: Record<string, unknown>; ignored: string[] };
  handler: (ctx: RequestContext, params: Record<string, unknown>) => Promise<Record<string, unknown> | Response>;
}

/** Parameters every endpoint accepts without reporting them as ignored. */
const GLOBAL_PARAMS = new Set(['client']);

export function defineEndpoint<S extends z.ZodRawShape>(spec: EndpointSpec<S>): Endpoint {
  const schema = z.object(spec.params);
  const aliases = spec.aliases ?? {};
  const required = Object.keys(spec.params).filter(
    (key) => !(spec.params[key] as z.ZodType).safeParse(undefined).success,
  );

  return {
    method: spec.method,
    path: spec.path,
    auth: spec.auth ?? 'user',
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
    handler: spec.handler as Endpoint['handler'],
  };
}

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
      return issue.origin === 'string'
        ? `${name} is too long (limit: ${String(issue.maximum)} characters)`
        : `${name} is too large`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${name} cannot be blank`;
      return `${name} is too small`;
    case 'unrecognized_keys':
      return `Argument "${issue.keys[0]}" at ${name} is unexpected`;
    case 'invalid_value':
    case 'invalid_union':
    case 'invalid_format':
      return `Invalid ${name}`;
    default:
      return fill(issue.message);
  }
}
