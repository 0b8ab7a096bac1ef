// What the transfer-status tests share: a transfer built by our own POST /x-transfer and signed as
// a wallet signs it, and a client that reads `text/event-stream` answers as they arrive.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect } from 'vitest';
import type { createApp } from '../../src/http/app';
import type { TestChain } from '../support/test-chain';
import { signAsAlice, topicOf, type Hex } from '../support/xcm-events';

export const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
export const DOT = 10_000_000_000n;

type App = ReturnType<typeof createApp>;

let nonce = 0;

export interface SignedTransfer {
  hex: Hex;
  hash: Hex;
  /** The topic the test gives the message (its id from the `Sent` event on). */
  topic: Hex;
}

/**
 * Builds a transfer with POST /v5/x-transfer, then signs the call data as Alice on `origin` (a
 * fresh nonce each time, so that no two tests share an extrinsic hash).
 */
export async function signedTransfer(app: App, origin: TestChain, body: Record<string, unknown>, overrides: Record<string, string>): Promise<SignedTransfer> {
  const built = await request(app)
    .post('/v5/x-transfer')
    .send({ address: ALICE, ...body, options: { development: true, apiOverrides: overrides } });
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  const { hex, hash } = await signAsAlice(origin, built.body as string, nonce++);
  return { hex, hash, topic: topicOf(hash) };
}

export interface StreamEvent {
  event: string;
  data: unknown;
}

/** An answer read as it arrives: the HTTP status and content type, then each event in turn. */
export interface OpenStream {
  status: number;
  contentType: string | null;
  /** The next event (comments skipped), or undefined once the stream ended. */
  next(): Promise<StreamEvent | undefined>;
  /** Events up to and including the first `event` named so (or up to the end). */
  until(event: string): Promise<StreamEvent[]>;
  /** Hangs up, as a client that goes away. */
  close(): void;
}

/** POSTs `body` to `url` and reads the answer as a stream; `accept` undefined sends fetch's own (`*\/*`). */
export async function openStream(url: string, body: unknown, accept: string | undefined = 'text/event-stream'): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const next = async (): Promise<StreamEvent | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = frame.split('\n').filter((l) => !l.startsWith(':'));
        if (lines.length === 0) continue;
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
        return { event: field('event') ?? 'message', data: JSON.parse(field('data') ?? 'null') };
      }
      if (done) return undefined;
      const chunk = await reader.read();
      if (chunk.done) done = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    next,
    async until(name) {
      const seen: StreamEvent[] = [];
      for (let e = await next(); e; e = await next()) {
        seen.push(e);
        if (e.event === name) break;
      }
      return seen;
    },
    close: () => abort.abort(),
  };
}

/** The app on a loopback port (streams need a real socket: supertest reads whole answers). */
export async function listen(app: App): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
