import { standInFor } from '../platform/stand-in.ts';

/** What a host needs to write a JSON answer itself: its status, headers and text. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

const ANSWER = Symbol('answer');
const BUILT = Symbol('built');

/** A Response for a JSON answer; the platform Response behind it is built on first use. */
class JsonAnswerResponse {
  readonly [ANSWER]: JsonAnswer;
  [BUILT]: Response | undefined = undefined;

  constructor(answer: JsonAnswer) {
    this[ANSWER] = answer;
  }
}

/** The text of each platform Response built from an answer, for `jsonResponseText`. */
const builtTexts = new WeakMap<Response, string>();

function built(response: JsonAnswerResponse): Response {
  if (!response[BUILT]) {
    const { status, headers, text } = response[ANSWER];
    response[BUILT] = new Response(text, { status, headers });
    builtTexts.set(response[BUILT], text);
  }
  return response[BUILT];
}

standInFor(JsonAnswerResponse, Response, built, {
  status: {
    get() {
      return this[ANSWER].status;
    },
  },
  ok: {
    get() {
      return this[ANSWER].status >= 200 && this[ANSWER].status < 300;
    },
  },
  statusText: {
    get() {
      return '';
    },
  },
  bodyUsed: {
    get() {
      return this[BUILT]?.bodyUsed ?? false;
    },
  },
});

/**
 * A `Response` (by `instanceof` and by every member) whose platform Response is built only when
 * something reads it as one: its headers, its body, a method. A host that writes the answer
 * itself takes `unreadJsonAnswer` instead, and nothing is built.
 */
export function jsonAnswerResponse(answer: JsonAnswer): Response {
  return new JsonAnswerResponse(answer) as unknown as Response;
}

/**
 * The answer of a `jsonAnswerResponse` nothing has yet used as a Response (whose headers or body
 * nobody may have changed or read); null for any other response.
 */
export function unreadJsonAnswer(response: Response): JsonAnswer | null {
  return response instanceof JsonAnswerResponse && !response[BUILT] ? response[ANSWER] : null;
}

/** The platform's own Response for any response: what native code (`respondWith`, msw) accepts. */
export function platformResponse(response: Response): Response {
  return response instanceof JsonAnswerResponse ? built(response) : response;
}

/**
 * The body of a JSON answer (a `jsonAnswerResponse`, or the platform Response built from one)
 * while unread; null for any other response. A host that copies the body elsewhere takes it at
 * once: reading a Response's body in a browser waits for a task of its own (the browser host's
 * relay, relay-server.ts).
 */
export function jsonResponseText(response: Response): string | null {
  if (response.bodyUsed) return null;
  return response instanceof JsonAnswerResponse ? response[ANSWER].text : (builtTexts.get(response) ?? null);
}
