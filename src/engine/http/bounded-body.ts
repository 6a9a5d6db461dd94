/**
 * A request's body, read up to `maxBytes`; null when it is longer, known from its declared
 * Content-Length or as soon as the bytes read pass the limit (the rest is never read).
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  // Refused unread and left alone: the host drains or drops it after the answer (cancelling
  // it here destroys the Node host's request and its socket, a race with the answer's write).
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return null;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      cancelUnawaited(reader);
      return null;
    }
    chunks.push(read.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Cancels the rest of a body without waiting: the cancel of one branch of a tee (a body read
 * from `request.clone()`) settles only once the other branch is cancelled too, which the
 * caller may never do, so awaiting it hung the request for good.
 */
function cancelUnawaited(stream: { cancel(): Promise<void> }): void {
  stream.cancel().catch(() => undefined);
}
