// The WebSocket every chain client in this process uses (polkadot.js through @polkadot/x-ws, and the
// router's polkadot-api clients through `websocketClass`). A chain node is not trusted: a frame it
// sends must never throw inside the socket's event handler, where nothing can catch it and the
// process would exit. Each frame is checked before the client sees it (frame-check.ts); a frame that
// is not a JSON-RPC answer to something we asked or a notification on a subscription we were given,
// or that makes the client throw, now or later (containment.ts), fails the connection: the client
// sees a close (code 1007) naming the problem and the socket is dropped.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { ClientOptions } from 'ws';
import { AddressGuard, quote } from './address-guard';
import { answerBudgets } from './answer-budget';
import { deliveringFor, errorText, type Containable } from './containment';
import { FrameCheck, HOLD_MS } from './frame-check';
import { handingOverOwnClose } from './own-closes';
import { inTurn } from './turns';

const load = createRequire(__filename);
const { WebSocket: WsWebSocket } = load('ws') as typeof import('ws');

/** Close code given to the client when a frame is malformed ("invalid frame payload data"). */
export const MALFORMED_FRAME_CODE = 1007;
/** Close code ws uses for a frame over `maxPayload` ("message too big"). */
export const FRAME_TOO_BIG_CODE = 1009;

export interface SocketContext {
  /** The chain the socket belongs to, for messages. */
  readonly chain?: string;
  readonly guard: AddressGuard;
  /** Largest frame accepted from a node, in bytes. */
  readonly maxFrameBytes: number;
  /** Called for every socket opened under this context (engine clients are tracked this way). */
  readonly onSocket?: (socket: ChainSocket) => void;
  /** The last thing that went wrong on a socket of this context, named: set by the socket. */
  lastFailure?: string;
  /** The last JSON-RPC error a node answered on a socket of this context (`code: message`). */
  lastRpcError?: string;
}

const MALFORMED = 'malformed frame: ';
const UNHANDLED = 'frame the client could not handle: ';
const TOO_BIG = 'frame over the size limit';

/** Whether a socket failure was the node's frame (malformed or too big), not the network. */
export const isFrameFailure = (failure: string | undefined): boolean =>
  failure !== undefined && (failure.startsWith(MALFORMED) || failure.startsWith(UNHANDLED) || failure.startsWith(TOO_BIG));

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

let defaultContext: SocketContext = { guard: new AddressGuard(true), maxFrameBytes: DEFAULT_MAX_FRAME_BYTES };

/**
 * The policy for sockets opened outside any context of ours (set by the services at start-up);
 * the returned function puts the previous policy back (the services' close), so a process that
 * runs several service instances (tests) is not left with the policy of one it closed.
 */
export function setDefaultSocketContext(context: SocketContext): () => void {
  const previous = defaultContext;
  defaultContext = context;
  return () => {
    if (defaultContext === context) defaultContext = previous;
  };
}

/** Sockets opened while running inside `socketContexts.run(context, ...)` take that context. */
export const socketContexts = new AsyncLocalStorage<SocketContext>();

// polkadot.js hands the socket only `{ headers }` (the WsProvider's third argument); the headers
// object itself is the key to its context. It stays empty, so no header is sent.
const byHeaders = new WeakMap<object, SocketContext>();

/** Headers to give `new WsProvider(url, false, headers)` so its sockets take `context`. */
export function headersFor(context: SocketContext): Record<string, string> {
  const headers: Record<string, string> = {};
  byHeaders.set(headers, context);
  return headers;
}

/** A socket error or close, named: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`, never `[object Object]`. */
export function describeSocketError(error: unknown): string {
  const inner = error !== null && typeof error === 'object' && 'error' in error && error.error instanceof Error ? error.error : error;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    const tls = (typeof code === 'string' && /CERT|SSL|TLS|SELF_SIGNED/.test(code)) || /\b(SSL|TLS)\b|ssl3_|tls_/.test(inner.message);
    const prefix = tls ? `TLS failure (${typeof code === 'string' ? code : inner.name})` : typeof code === 'string' ? code : inner.name;
    return inner.message.includes(String(code)) && !tls ? inner.message : `${prefix}: ${inner.message}`;
  }
  if (error !== null && typeof error === 'object') {
    const e = error as { code?: unknown; reason?: unknown; message?: unknown };
    if (typeof e.code === 'number') return `closed with code ${e.code}${typeof e.reason === 'string' && e.reason ? ` (${e.reason})` : ''}`;
    if (typeof e.message === 'string' && e.message) return e.message;
  }
  return typeof error === 'string' ? error : 'unknown socket error';
}

/** Frames at least this long reach the clients a turn after they are checked (see `#later`). */
const LARGE_FRAME_BYTES = 1024 * 1024;
/** Frames waiting for the clients before the socket stops reading. */
const MAX_WAITING_FRAMES = 4;

/**
 * `ws`'s WebSocket with the checks above, the address guard (literal hosts refused before dialling,
 * names resolved and checked by the guard's `lookup`) and a bound on frame size.
 */
export class ChainSocket extends WsWebSocket implements Containable {
  readonly context: SocketContext;
  /** What this connection asked and was given: the only answers and notifications it accepts. */
  readonly #check = new FrameCheck();
  #closeDelivered = false;
  /** Events waiting to reach the clients in order, one a turn, behind a large frame (see #later). */
  #queue: [event: string, args: unknown[]][] | undefined;
  #failed = false;
  /** Whether our client closed this socket (polkadot.js's `disconnect()`): its reports of the calls that close cuts short are not failures. */
  #closedHere = false;
  /** Fails the connection if notifications wait too long for their subscription id (frame-check.ts). */
  #holdTimer: NodeJS.Timeout | undefined;

  constructor(address: string | URL, protocols?: string | string[], options?: ClientOptions) {
    const context = (options?.headers && byHeaders.get(options.headers)) ?? socketContexts.getStore() ?? defaultContext;
    context.guard.checkLiteral(new URL(String(address)).hostname);
    super(address, protocols, { ...options, headers: { ...options?.headers }, maxPayload: context.maxFrameBytes, lookup: context.guard.lookup, followRedirects: false });
    this.context = context;
    // Without an 'error' listener an EventEmitter throws the error; clients add their own too.
    this.on('error', (error: Error) => {
      const code = (error as { code?: unknown }).code;
      if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') this.#fail(`${TOO_BIG} (${context.maxFrameBytes} bytes)`, FRAME_TOO_BIG_CODE);
      // ws refused a frame that breaks the WebSocket protocol (invalid UTF-8, bad opcode, ...).
      else if (typeof code === 'string' && code.startsWith('WS_ERR_')) this.#fail(`${MALFORMED}${error.message}`);
      else this.#noteFailure(describeSocketError(error));
    });
    context.onSocket?.(this);
  }

  override close(code?: number, data?: string | Buffer): void {
    this.#closedHere = true;
    super.close(code, data);
  }

  override send(data: unknown, ...rest: unknown[]): void {
    if (typeof data === 'string') this.#check.sent(data, answerBudgets.getStore());
    (super.send as (...args: unknown[]) => void)(data, ...rest);
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'close') {
      if (this.#closeDelivered) return false;
      this.#closeDelivered = true;
      const [code, reason] = args as [number, Buffer];
      clearTimeout(this.#holdTimer);
      this.#noteFailure(`closed with code ${code}${reason?.length ? ` (${quote(reason.toString())})` : ''}`);
      return this.#queue ? this.#later(event, args) : this.#deliver(event, args);
    }
    if (event === 'message') {
      if (this.#closeDelivered) return false;
      const isBinary = args[1] === true;
      // Decoded once: the clients get the text the check read (ws would decode the bytes again for each).
      const text = isBinary ? '' : String(args[0]);
      const verdict = this.#check.received(text, isBinary, (error) => (this.context.lastRpcError = error));
      if (verdict === 'drop') return false;
      if (verdict === 'hold') {
        this.#watchHeld();
        return false;
      }
      if (verdict !== 'deliver' && 'problem' in verdict) {
        this.#fail(`${MALFORMED}${verdict.problem}`);
        return false;
      }
      const frames = verdict === 'deliver' ? [text] : 'instead' in verdict ? [verdict.instead] : [text, ...verdict.then];
      let delivered = false;
      for (const frame of frames) {
        if (this.#failed) break;
        args = [frame, false];
        delivered = this.#queue || frame.length >= LARGE_FRAME_BYTES ? this.#later(event, args) : this.#deliver(event, args);
      }
      return delivered;
    }
    return this.#deliver(event, args);
  }

  /** Fails the connection once held notifications have waited HOLD_MS for their subscription id. */
  #watchHeld(): void {
    if (this.#holdTimer) return;
    this.#holdTimer = setTimeout(() => {
      this.#holdTimer = undefined;
      if (!this.#check.holding || this.#failed) return;
      const late = this.#check.heldTooLong();
      if (late === undefined) this.#watchHeld();
      else this.#fail(`${MALFORMED}${late}`);
    }, HOLD_MS).unref();
  }

  /**
   * Hands `event` to the clients in a later turn of the event loop, after those already waiting
   * (turns.ts: of every socket and every long decode): decoding and checking a large frame and
   * the client's parse of it then never run back to back, so no turn holds the loop for both.
   * Past a few waiting frames the socket stops reading until they are delivered, so the wait
   * holds no more than that.
   */
  #later(event: string, args: unknown[]): boolean {
    if (!this.#queue) {
      this.#queue = [];
      inTurn(() => this.#drain());
    }
    this.#queue.push([event, args]);
    if (this.#queue.length >= MAX_WAITING_FRAMES && !this.isPaused) this.pause();
    return true;
  }

  #drain(): void {
    const queue = this.#queue;
    const next = queue?.shift();
    if (!queue || !next || this.#failed) {
      this.#queue = undefined;
      return;
    }
    this.#deliver(next[0], next[1]);
    if (queue.length > 0 && !this.#failed) {
      inTurn(() => this.#drain());
      return;
    }
    this.#queue = undefined;
    if (this.isPaused) this.resume();
  }

  /** An error the client raised later, from what one of this socket's events set off (containment.ts). */
  failForClientError(error: unknown): void {
    this.#fail(`${UNHANDLED}${errorText(error)}`);
  }

  /** Hands an event to the clients; whatever they throw, now or from what they schedule, ends this connection only. */
  #deliver(event: string | symbol, args: unknown[]): boolean {
    try {
      if (event === 'close' && this.#closedHere) return handingOverOwnClose(this.url, () => deliveringFor(this, () => super.emit(event, ...args)));
      return deliveringFor(this, () => super.emit(event, ...args));
    } catch (error) {
      this.failForClientError(error);
      return false;
    }
  }

  /** Ends the connection at once; the client sees a close carrying `reason`. */
  #fail(reason: string, code = MALFORMED_FRAME_CODE): void {
    this.#failed = true;
    const text = quote(reason, 200);
    this.#noteFailure(text);
    if (!this.#closeDelivered) {
      this.#closeDelivered = true;
      try {
        deliveringFor(this, () => super.emit('close', code, Buffer.from(text)));
      } catch {
        // A client's close handler failing changes nothing: the socket goes anyway.
      }
    }
    this.terminate();
  }

  #noteFailure(what: string): void {
    this.context.lastFailure = what;
  }
}
