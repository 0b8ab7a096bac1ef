import { writeSync } from 'node:fs';
import { format } from 'node:util';
import pino, { type Level, type Logger } from 'pino';

/** Longest a buffered line waits before it is written out on a quiet server. */
const FLUSH_INTERVAL_MS = 1_000;
/** Buffered bytes are written out once they reach this: one write system call per about 4 KiB of lines. */
const WRITE_AT = 4096;
/** The buffer's size: a line that cannot fit in it is written on its own. */
const BUFFER_BYTES = 64 * 1024;
/** A UTF-16 code unit takes at most this many UTF-8 bytes. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * pino's destination: lines encoded straight into one buffer and written synchronously per 4 KiB
 * (sonic-boom, which pino.destination makes, appends each line to a string it measures again and
 * encodes again before each write: 1.0 µs more per line, measured).
 */
class LineBuffer {
  private readonly bytes = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;

  constructor(private readonly fd: number) {}

  write(text: string): boolean {
    if (this.used + MAX_BYTES_PER_UNIT * text.length > BUFFER_BYTES) {
      this.flushSync();
      if (MAX_BYTES_PER_UNIT * text.length > BUFFER_BYTES) {
        this.writeOut(Buffer.from(text));
        return true;
      }
    }
    this.used += this.bytes.write(text, this.used);
    if (this.used >= WRITE_AT) this.flushSync();
    return true;
  }

  /** pino's `logger.flush(callback)`. */
  flush(callback?: (error?: Error) => void): void {
    this.flushSync();
    callback?.();
  }

  flushSync(): void {
    const used = this.used;
    this.used = 0;
    if (used > 0) this.writeOut(this.bytes.subarray(0, used));
  }

  /**
   * Writes all of `bytes`. A full pipe that does not block (EAGAIN) is waited for, as sonic-boom
   * waits; any other failure (stdout closed by its reader) drops the lines: there is nowhere left
   * to write, and logging must not fail a request.
   */
  private writeOut(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length) {
      try {
        at += writeSync(this.fd, bytes, at, bytes.length - at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(WAIT, 0, 0, EAGAIN_WAIT_MS);
      }
    }
  }
}

/** How long a write waits for a full pipe that does not block before it tries again. */
const EAGAIN_WAIT_MS = 10;
const WAIT = new Int32Array(new SharedArrayBuffer(4));

let stdout: LineBuffer | undefined;

/**
 * Lines are buffered (up to 4 KiB) so that a busy server does not pay one write system call per
 * request; a timer writes out whatever a quiet server has buffered. Each 4 KiB is written
 * synchronously: half the CPU per line of asynchronous writes (measured: 2.4 against 4.1 µs),
 * whose buffer grows while a write is in flight. The `exit` hook writes the rest: whatever ends
 * the process (process.exit, a crash, an empty event loop), no line logged before it is lost.
 * One destination per process: every logger shares its buffer, so lines keep their order.
 */
function destination(): LineBuffer {
  if (!stdout) {
    const dest = new LineBuffer(1);
    setInterval(() => dest.flushSync(), FLUSH_INTERVAL_MS).unref();
    process.on('exit', () => dest.flushSync());
    stdout = dest;
  }
  return stdout;
}

let timeMs = 0;
let timeField = '';
let second = -1;
/** `,"time":"2026-12-07T15:39:12.` of the current second. */
let secondField = '';

/**
 * pino's `isoTime`, formatted once per millisecond (a busy server writes many lines in one) from
 * its second's text, formatted once per second: at 10,000 lines a second the millisecond changes
 * between most lines, and toISOString cost more than the rest of the line's time.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    const ms = now % 1000;
    if (now - ms !== second) {
      second = now - ms;
      secondField = `,"time":"${new Date(second).toISOString().slice(0, 20)}`;
    }
    timeField = `${secondField}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  }
  return timeField;
}

/** Structured logs on stdout, one JSON object per line; `bindings` go into every line (the sandbox's `sandbox: true`). */
export function createLogger(level: string, bindings?: Record<string, unknown>): Logger {
  return pino({ level, base: bindings, timestamp: isoTime }, destination());
}

/** Writes out whatever the logger still buffers. */
export function flushLogger(logger: Logger): void {
  logger.flush();
}

/** polkadot.js's logger writes `<date> <ORIGIN:, padded> ...values`: the origin becomes a field. */
const POLKADOT_DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const POLKADOT_ORIGIN = /^\s*([A-Z][\w/-]*):$/;
/** The package of a stack frame under node_modules (`@scope/name` or `name`). */
const PACKAGE_FRAME = /[/\\]node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)[/\\]/;
/** The chain client libraries: polkadot.js and polkadot-api. */
const CHAIN_CLIENT = /^@polkadot(?:-api)?\//;

/** The package that called a console method: frame [3] is its caller ([1] this function, [2] the console method). */
function callerPackage(): string | undefined {
  const frame = new Error().stack?.split('\n')[3] ?? '';
  return PACKAGE_FRAME.exec(frame)?.[1].replace('\\', '/');
}

/**
 * Libraries write to the console: polkadot.js reports every failed, refused or dropped chain call
 * there, polkadot-api its sockets' halts. Each console call becomes one JSON line of `logger`
 * instead, so that stdout carries JSON only and stderr nothing, and each names its `origin`:
 * polkadot.js's own (`API-WS`, `RPC-CORE`, ...), else the package that wrote it, else `console`.
 * The chain clients' reports are `debug` lines: the service reports each failure they repeat
 * itself, once (a failed dial, a dropped connection, the request's answer), and a dial they give
 * up on would otherwise add half a dozen warnings of its own. A chain client's report that
 * `notAFailure` names (a call cut short by a close the service asked for) is no line at all.
 */
export function routeConsoleTo(logger: Logger, notAFailure: (text: string) => boolean = () => false): void {
  const levels: Record<'error' | 'warn' | 'info' | 'log' | 'debug', Level> = { error: 'warn', warn: 'warn', info: 'info', log: 'info', debug: 'debug' };
  for (const [method, level] of Object.entries(levels) as [keyof typeof levels, Level][]) {
    console[method] = (...args: unknown[]) => {
      const from = callerPackage();
      const chainClient = from !== undefined && CHAIN_CLIENT.test(from);
      const [date, origin, ...values] = args;
      const tagged = typeof date === 'string' && POLKADOT_DATE.test(date) && typeof origin === 'string' ? POLKADOT_ORIGIN.exec(origin)?.[1] : undefined;
      const text = tagged ? format(...values) : format(...args);
      if (chainClient && notAFailure(text)) return;
      logger[chainClient ? 'debug' : level]({ console: method, origin: tagged ?? from ?? 'console' }, text);
    };
  }
}
