import type { Endpoint, HttpMethod } from './endpoint.ts';

interface CompiledRoute {
  segments: string[];
  endpoints: Map<HttpMethod, Endpoint>;
}

export type RouteMatch =
  | { kind: 'found'; endpoint: Endpoint; pathParams: Map<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/**
 * Maps `METHOD /path/{param}` to endpoints; literal segments win over `{param}` segments. A last
 * segment `{name*}` takes the rest of the path, slashes included (upstream's `<path:name>`: an
 * upload's file path, a navigation view's fragment).
 */
export class Router {
  #routes: CompiledRoute[] = [];

  add(endpoint: Endpoint): void {
    const segments = endpoint.path.split('/').filter(Boolean);
    let route = this.#routes.find((r) => r.segments.join('/') === segments.join('/'));
    if (!route) {
      route = { segments, endpoints: new Map() };
      this.#routes.push(route);
      // Routes with more literal segments first, so `/messages/flags` beats `/messages/{id}`.
      this.#routes.sort((a, b) => literalScore(b) - literalScore(a));
    }
    if (route.endpoints.has(endpoint.method)) throw new Error(`duplicate route ${endpoint.method} ${endpoint.path}`);
    route.endpoints.set(endpoint.method, endpoint);
  }

  get endpoints(): Endpoint[] {
    return this.#routes.flatMap((r) => [...r.endpoints.values()]);
  }

  match(method: string, path: string): RouteMatch {
    const parts = decodeParts(path.split('/').filter(Boolean));
    if (!parts) return { kind: 'not-found' };
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      const lookup = method === 'HEAD' ? 'GET' : method;
      const endpoint = route.endpoints.get(lookup as HttpMethod);
      if (endpoint) return { kind: 'found', endpoint, pathParams: params };
      return { kind: 'method-not-allowed', allowed: [...route.endpoints.keys()] };
    }
    return { kind: 'not-found' };
  }
}

function literalScore(route: CompiledRoute): number {
  return route.segments.reduce((score, s, i) => score + (s.startsWith('{') ? 0 : 2 ** (8 - i)), 0);
}

/** The path's segments decoded once for every route tried; null when one is not valid percent-encoding (no route matches it). */
function decodeParts(parts: string[]): string[] | null {
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

function matchSegments(segments: string[], decoded: string[]): Map<string, string> | null {
  const rest = segments.at(-1)?.endsWith('*}') === true;
  if (rest ? decoded.length < segments.length : segments.length !== decoded.length) return null;
  const params = new Map<string, string>();
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (rest && i === segments.length - 1) params.set(segment.slice(1, -2), decoded.slice(i).join('/'));
    else if (segment.startsWith('{')) params.set(segment.slice(1, -1), decoded[i]);
    else if (segment !== decoded[i]) return null;
  }
  return params;
}
