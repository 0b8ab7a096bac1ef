// A typed client of xcm-gateway: openapi-fetch over the types openapi-typescript generates from the
// service's openapi.yaml (schema.ts, written by `npm run client` at the repository's root; a test
// fails when it differs from what the document gives). Every request body and answer is typed
// from the document; answers are read as JSON. `/x-transfer/status/stream` streams what
// `/x-transfer/status` answers as JSON: `statusEvents` reads that stream.
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };

/** The answer of `/x-transfer/status` (or the `status` event that ends `/x-transfer/status/stream`). */
export type TransferStatus = components['schemas']['TransferStatus'];

/** What `/x-transfer/status/stream` sends: each leg as it changes, then the whole status. */
export type StatusEvent = { event: 'leg'; data: components['schemas']['TransferLeg'] } | { event: 'status'; data: TransferStatus };

/** A client of the service at `baseUrl` (`http://127.0.0.1:3001`), its answers typed as the JSON they are. */
export function createGatewayClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}) {
  return createClient<paths>({ ...options, baseUrl });
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;

/** A body of POST /v5/x-transfer/status (and of its `/stream`). */
export type StatusRequest = paths['/v5/x-transfer/status/stream']['post']['requestBody']['content']['application/json'];

/**
 * Follows a transfer with POST /v5/x-transfer/status/stream: yields each event as it comes
 * (`leg`s, then one `status`); an `error` event is thrown (its data an `ErrorBody`). Ends with the
 * stream, or when `signal` aborts.
 */
export async function* statusEvents(baseUrl: string, body: StatusRequest, signal?: AbortSignal): AsyncGenerator<StatusEvent> {
  const res = await fetch(`${baseUrl}/v5/x-transfer/status/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (!res.ok || !res.body) throw new Error(`POST /v5/x-transfer/status/stream answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (event === 'error') throw new Error(`POST /v5/x-transfer/status/stream: ${data}`);
      if ((event === 'leg' || event === 'status') && data) yield { event, data: JSON.parse(data) } as StatusEvent;
    }
  }
}
