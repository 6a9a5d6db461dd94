import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/**
 * Upstream's OpenAPI document (../shared/reference/zulip-openapi.yaml) as JSON Schema that a
 * standard validator can apply to one response: `$ref`s inlined, each `allOf` merged into one
 * object schema (upstream lists a response's fields in one branch with
 * `additionalProperties: false` and their types in another, and marks `nullable` in either),
 * and OpenAPI 3.0's `nullable` turned into a `null` type.
 */

type Schema = Record<string, any>;

const OPENAPI_FILE = new URL('../../../shared/reference/zulip-openapi.yaml', import.meta.url);

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  operationId: string;
  responses: Record<string, Schema>;
}

export interface SchemaFault {
  /** upstream's operationId and the status, e.g. `get-messages 200`. */
  where: string;
  /** JSON pointer into the body, e.g. `/messages/0/reactions/0`. */
  path: string;
  message: string;
}

let loaded: { document: Schema; operations: Operation[] } | undefined;

function load() {
  if (loaded) return loaded;
  const document = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Schema;
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<Schema>(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const method of ['get', 'post', 'patch', 'put', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const responses: Record<string, Schema> = {};
      for (const [status, response] of Object.entries<Schema>(operation.responses ?? {})) {
        const schema = resolve(document, response).content?.['application/json']?.schema;
        if (schema) responses[status] = schema;
      }
      operations.push({ method: method.toUpperCase(), template, pattern, operationId: operation.operationId, responses });
    }
  }
  // A literal path wins over a template that also matches it (`/users/me` over `/users/{id}`).
  operations.sort((a, b) => placeholders(a.template) - placeholders(b.template));
  loaded = { document, operations };
  return loaded;
}

const placeholders = (template: string) => (template.match(/\{/g) ?? []).length;

function resolve(document: Schema, schema: Schema): Schema {
  let current = schema;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node: Schema, key: string) => node[key], document);
  }
  return current;
}

/** Inlines refs, merges allOf and maps nullable, depth-first. */
function normalize(document: Schema, schema: Schema, seen: Set<Schema> = new Set()): Schema {
  const resolved = resolve(document, schema);
  if (resolved === null || typeof resolved !== 'object' || seen.has(resolved)) return {};
  const inner = new Set(seen).add(resolved);
  let result: Schema = { ...resolved };
  if (Array.isArray(resolved.allOf)) {
    const { allOf, ...rest } = resolved;
    result = [...allOf.map((branch: Schema) => normalize(document, branch, inner)), rest].reduce(mergeSchemas, {});
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(result)) {
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries<Schema>(value).map(([name, property]) => [name, normalize(document, property, inner)]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = normalize(document, value, inner);
    } else if (key === 'oneOf' || key === 'anyOf') {
      // Upstream's `oneOf`s list alternatives that may overlap (error examples that all fit a
      // plain coded error), so "at least one" is what they mean.
      out.anyOf = value.map((branch: Schema) => normalize(document, branch, inner));
    } else if (key !== 'nullable' && key !== 'example' && key !== 'description' && key !== 'deprecated') {
      out[key] = value;
    }
  }
  if (result.nullable === true) return allowNull(out);
  return out;
}

function allowNull(schema: Schema): Schema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'], ...(schema.enum && { enum: [...schema.enum, null] }) };
  if (schema.anyOf) return { anyOf: [{ type: 'null' }, schema] };
  return schema;
}

/** Combines two object schemas as allOf would require both: properties merged by name. */
function mergeSchemas(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (key === 'properties') {
      const properties: Schema = { ...(a.properties ?? {}) };
      for (const [name, property] of Object.entries<Schema>(value)) {
        properties[name] = properties[name] ? mergeSchemas(properties[name], property) : property;
      }
      merged.properties = properties;
    } else if (key === 'required') {
      merged.required = [...new Set([...(a.required ?? []), ...value])];
    } else if (key === 'additionalProperties') {
      if (value === false || merged.additionalProperties === undefined) merged.additionalProperties = value;
    } else if (key === 'nullable') {
      merged.nullable = merged.nullable === true || value === true;
    } else if (merged[key] === undefined) {
      merged[key] = value;
    }
  }
  return merged;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map<Schema, ValidateFunction>();

function validatorFor(schema: Schema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

const normalizedResponses = new Map<Schema, Schema>();

function normalizedResponse(document: Schema, schema: Schema): Schema {
  let normalized = normalizedResponses.get(schema);
  if (!normalized) {
    normalized = normalize(document, schema);
    normalizedResponses.set(schema, normalized);
  }
  return normalized;
}

const describe = (where: string, errors: ErrorObject[] | null | undefined, prefix = ''): SchemaFault[] =>
  (errors ?? []).map((error) => ({
    where,
    path: prefix + error.instancePath,
    message:
      error.keyword === 'additionalProperties'
        ? `has ${String(error.params.additionalProperty)}, which upstream's schema does not list`
        : `${error.message ?? error.keyword}${error.keyword === 'enum' ? ` (${JSON.stringify(error.params.allowedValues)})` : ''}`,
  }));

/**
 * The faults upstream's schema finds in one answer, or `undefined` when upstream documents no
 * JSON body for it (a success of an endpoint newer than the file, a non-API path). An error is
 * also accepted in the shape of any of upstream's shared error schemas (`MissingArgumentError`
 * with `var_name`, `NonExistingChannelIdError` with `stream_id`, ...): each operation lists
 * only a few examples of the errors every endpoint can give.
 */
export function schemaFaults(method: string, apiPath: string, status: number, body: unknown): SchemaFault[] | undefined {
  const { document, operations } = load();
  const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(apiPath));
  const schema = operation?.responses[String(status)];
  const where = `${operation?.operationId ?? `${method} ${apiPath}`} ${status}`;
  if (status >= 400) {
    const generic = validatorFor(genericErrorSchema(document));
    if (generic(body)) return [];
    if (!schema) return describe(where, generic.errors);
  }
  if (!operation || !schema) return undefined;
  const normalized = normalizedResponse(document, schema);
  if (operation.operationId === 'get-events' && status === 200) return eventFaults(where, normalized, body);
  const validate = validatorFor(normalized);
  return validate(body) ? [] : describe(where, validate.errors);
}

let genericErrors: Schema | undefined;

function genericErrorSchema(document: Schema): Schema {
  genericErrors ??= {
    anyOf: Object.entries<Schema>(document.components.schemas)
      .filter(([name]) => name.endsWith('Error'))
      .map(([, schema]) => normalize(document, schema)),
  };
  return genericErrors;
}

/**
 * Events are checked one by one against the event schemas of their own `type` (and `op`):
 * against the whole `oneOf`, every event would fail ninety branches.
 */
function eventFaults(where: string, response: Schema, body: any): SchemaFault[] {
  const events = body?.events;
  const envelopeSchema = { ...response, properties: { ...response.properties, events: { type: 'array' } } };
  const faults = describe(where, validatorFor(envelopeSchema)(body) ? [] : validatorFor(envelopeSchema).errors);
  const eventSchemas: Schema[] = response.properties.events.items.anyOf;
  (Array.isArray(events) ? events : []).forEach((event: any, index: number) => {
    const candidates = eventSchemas.filter((schema) => matchesEnum(schema, 'type', event.type) && matchesEnum(schema, 'op', event.op));
    if (candidates.length === 0) {
      faults.push({ where, path: `/events/${index}`, message: `event ${event.type}${event.op ? `/${event.op}` : ''} is not in upstream's schema` });
      return;
    }
    const results = candidates.map((schema) => {
      const validate = validatorFor(schema);
      return validate(event) ? [] : describe(where, validate.errors, `/events/${index}(${event.type}${event.op ? `/${event.op}` : ''})`);
    });
    if (results.some((result) => result.length === 0)) return;
    faults.push(...results.reduce((best, next) => (next.length < best.length ? next : best)));
  });
  return faults;
}

function matchesEnum(schema: Schema, field: string, value: unknown): boolean {
  const allowed = schema.properties?.[field]?.enum;
  return allowed === undefined || allowed.includes(value);
}
