import { hmacSha256 } from '../crypto/portable-crypto.ts';

/**
 * Video-call URLs as upstream builds them. Upstream's BigBlueButton URL is a relative link to
 * its own `/calls/bigbluebutton/join`, carrying the meeting as a Django-signed object (the
 * JSON, base64url without padding, then `:` and an HMAC-SHA256 of it). No BigBlueButton server
 * or join page exists offline, so the link points nowhere; the signing key is thrown away at
 * once, since nothing here ever checks the signature.
 */
/** Bytes per `String.fromCharCode` call: spreading a whole long meeting name overflowed the stack. */
const CHAR_CODE_CHUNK = 0x4000;

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHAR_CODE_CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHAR_CODE_CHUNK));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Python's `json.dumps(obj, separators=(",", ":"))`: compact, non-ASCII escaped. */
const pythonJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

async function signObject(value: unknown): Promise<string> {
  const data = base64Url(new TextEncoder().encode(pythonJson(value)));
  // As long as SHA-256's block, the length Web Crypto gives a generated HMAC key.
  const key = crypto.getRandomValues(new Uint8Array(64));
  const signature = await hmacSha256(key, new TextEncoder().encode(data));
  return `${data}:${base64Url(signature)}`;
}

/** Upstream's meeting ids: `zulip-` and a random number from 100000000000 to 999999999999. */
function meetingId(): string {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  const uniform = (high! * 2 ** 21 + (low! >>> 11)) / 2 ** 53;
  return `zulip-${100_000_000_000 + Math.floor(uniform * 900_000_000_000)}`;
}

/** GET /calls/bigbluebutton/create: the caller becomes the call's moderator. */
export async function bigBlueButtonUrl({ meetingName, voiceOnly, moderatorId }: { meetingName: string; voiceOnly: boolean; moderatorId: number }): Promise<string> {
  const signed = await signObject({ meeting_id: meetingId(), name: meetingName, lock_settings_disable_cam: voiceOnly, moderator: moderatorId });
  return `/calls/bigbluebutton/join?bigbluebutton=${signed}`;
}
