// Standard Webhooks signing (https://www.standardwebhooks.com): the headers a receiver checks with
// the `standardwebhooks` package or any of its ports.
import { randomBytes } from 'node:crypto';
import { Webhook as Signer } from 'standardwebhooks';
import { SECRET_PREFIX } from '../../schemas/webhook-secret';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (256 bits, HMAC-SHA256's key size). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The three headers for one try: the id and body are the event's on every try; the timestamp is
 * the try's, so a receiver's replay window (5 minutes in the reference verifier) holds for retries.
 */
export function signatureHeaders(secret: string, id: string, body: string, at: Date): SignatureHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Signer(secret).sign(id, at, body),
  };
}
