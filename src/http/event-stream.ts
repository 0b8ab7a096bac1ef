import type { Response } from 'express';
import { toJson } from './json';

/** A comment line this often keeps proxies from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** One `event:` with its JSON `data:` line. */
  send(event: string, data: unknown): void;
  end(): void;
}

/**
 * Starts a `text/event-stream` answer. `no-transform` keeps the compression middleware (and
 * proxies) from buffering it; `X-Accel-Buffering: no` does the same for nginx.
 */
export function openEventStream(res: Response): EventStream {
  res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  // Nothing is written once the answer ended or the client went away.
  const write = (text: string): void => {
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  return {
    send(event, data) {
      write(`event: ${event}\ndata: ${toJson(data)}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}
