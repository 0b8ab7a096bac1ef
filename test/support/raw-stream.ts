// A `text/event-stream` answer read over a socket of its own, for the tests and benches whose client
// goes away by destroying that socket mid-stream (killed, or its network lost), not by ending it.
import { request as httpRequest } from 'node:http';

/** A stream over a socket of its own, whose client goes away by destroying that socket mid-stream. */
export interface RawStream {
  /** Resolves once `count` `leg` events have arrived (rejects if the stream ends first). */
  legs(count: number): Promise<void>;
  /** Destroys the socket, as a client that is killed or loses its network. */
  destroy(): void;
}

export function rawStream(url: string, body: unknown, headers: Record<string, string> = {}): RawStream {
  const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers } });
  let text = '';
  const waiting = new Set<() => void>();
  const wake = () => waiting.forEach((check) => check());
  req.on('response', (res) => {
    res.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      wake();
    });
    res.on('close', wake);
  });
  req.on('close', wake);
  // Destroyed on purpose: the error that follows is expected.
  req.on('error', () => undefined);
  req.end(JSON.stringify(body));
  return {
    legs: (count) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if ((text.match(/^event: leg$/gm) ?? []).length >= count) resolve();
          else if (req.destroyed || req.socket?.destroyed) reject(new Error(`the stream ended before ${count} legs: ${text.slice(0, 300)}`));
          else return;
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      }),
    destroy: () => req.destroy(),
  };
}
