// The Standard Webhooks secret format, a pure check that the watch schema (schemas) and the sender
// (service) share: `whsec_` then the base64 of a key of 24 to 64 bytes (192 to 512 bits, the
// spec's bounds: shorter keys are guessable, longer ones add nothing to HMAC-SHA256).

export const SECRET_PREFIX = 'whsec_';
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;

// Standard base64 (the spec's alphabet, `+` and `/`), padded to a multiple of 4 characters.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True when `text` is `whsec_` and the base64 of 24 to 64 bytes. */
export function isWebhookSecret(text: string): boolean {
  if (!text.startsWith(SECRET_PREFIX)) return false;
  const key = text.slice(SECRET_PREFIX.length);
  // Bounded before the regex runs: a long string costs nothing.
  if (key.length > Math.ceil(SECRET_MAX_BYTES / 3) * 4 || !BASE64.test(key)) return false;
  const bytes = (key.length / 4) * 3 - (key.endsWith('==') ? 2 : key.endsWith('=') ? 1 : 0);
  return bytes >= SECRET_MIN_BYTES && bytes <= SECRET_MAX_BYTES;
}
