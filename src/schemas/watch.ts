// `POST /x-transfer/watch`: the status body plus where to call back. The webhook URL is judged here
// on its text alone (scheme, credentials, length); the watch service resolves and checks its host.
// Messages never quote the URL: it may carry a password.
import { z } from 'zod';
import type { TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Family } from './family';
import { doc } from './docs';
import { statusFields, type StatusRequest } from './status';
import { isWebhookSecret } from './webhook-secret';
import { abortOnIssue, typeError } from './zod-rules';

/** Characters in a webhook URL (as many as an override endpoint's). */
export const MAX_WEBHOOK_URL = 2048;

export interface WatchRequest {
  status: StatusRequest;
  webhook: { url: string; secret?: string };
}

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const webhookUrl = doc(
  z
    .string(typeError('must be an http:// or https:// URL'))
    .max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`)
    .check(abortOnIssue)
    .superRefine((value, ctx) => {
      const url = parsedUrl(value);
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// URL' });
      else if (url.username !== '' || url.password !== '') ctx.addIssue({ code: 'custom', message: 'must not carry credentials (user:password@)' });
    })
    .check(abortOnIssue),
  {
    description: 'Where events are POSTed: http(s), no credentials, a public address unless the operator allows private ones (ALLOW_PRIVATE_OVERRIDES).',
    pattern: '^[hH][tT][tT][pP][sS]?://',
  },
);

const webhookSecret = doc(
  z
    .string(typeError('must be a Standard Webhooks secret: whsec_ and base64'))
    .max(128, 'must be a Standard Webhooks secret: whsec_ and the base64 of 24 to 64 bytes')
    .check(abortOnIssue)
    .refine(isWebhookSecret, 'must be a Standard Webhooks secret: whsec_ and the base64 of 24 to 64 bytes'),
  { description: 'The signing secret (`whsec_` and base64 of 24 to 64 bytes); one is made when absent.', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] },
);

const webhook = doc(z.object({ url: webhookUrl, secret: webhookSecret.optional() }).strict(), {
  id: 'WatchWebhook',
  description: 'Where and how the watch calls back.',
});

const body = z
  .object({ ...statusFields, webhook })
  .strict()
  .check(abortOnIssue)
  .transform(({ webhook: hook, ...status }): WatchRequest => ({ status: { ...status, from: status.from as TSubstrateChain }, webhook: hook }));

/** The same body in both families, as the status body. */
export function watchBody(_family: Family): z.ZodType<WatchRequest, unknown> {
  return body;
}

/** A watch id: 24 url-safe characters (144 random bits). */
export const WATCH_ID = /^[A-Za-z0-9_-]{24}$/;

export const watchParams = z.object({
  id: doc(z.string().regex(WATCH_ID, 'must be a watch id: 24 characters of A-Z, a-z, 0-9, - and _'), { description: 'The id `POST /x-transfer/watch` answered.', examples: ['q2v0b1yXr0e9cM3nT6hJ4kLw'] }),
});
