/**
 * What every answer of the API must look like, whatever was sent: never a 5xx; JSON with
 * `result` and `msg` (and `code` on an error) for every JSON answer and every refusal. A few
 * successes are not JSON (an avatar's or a file's redirect, an OPTIONS answer); they may not be
 * errors. Returns what is wrong, or null.
 */
export async function envelopeProblem(response: Response): Promise<string | null> {
  if (response.status >= 500) return `status ${response.status}: ${(await response.text()).slice(0, 200)}`;
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) {
    if (response.status >= 400) return `status ${response.status} without a JSON body (${type || 'no content type'})`;
    await response.body?.cancel();
    return null;
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `a JSON body that is not an object: ${text.slice(0, 200)}`;
  const { result, msg, code } = body as Record<string, unknown>;
  if (typeof msg !== 'string') return `no msg: ${text.slice(0, 200)}`;
  if (response.status >= 400) {
    if (result !== 'error' || typeof code !== 'string') return `a refusal without result "error" and a code: ${text.slice(0, 200)}`;
  } else if (result !== 'success') {
    return `status ${response.status} with result ${JSON.stringify(result)}`;
  }
  return null;
}
