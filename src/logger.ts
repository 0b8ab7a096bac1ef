import { format } from 'node:util';
import pino, { type Level, type Logger } from 'pino';

/** Longest a buffered line waits before it is written out on a quiet server. */
const FLUSH_INTERVAL_MS = 1_000;

let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Lines are buffered (up to 4 KiB) so that a busy server does not pay one write system call per
 * request; a timer writes out whatever a quiet server has buffered. Each 4 KiB is written
 * synchronously: half the CPU per line of asynchronous writes (measured: 2.4 against 4.1 µs),
 * whose buffer grows while a write is in flight. pino flushes on exit only for asynchronous
 * destinations, so the `exit` hook writes the rest: whatever ends the process (process.exit, a
 * crash, an empty event loop), no line logged before it is lost. One destination per process:
 * every logger shares its buffer, so lines keep their order.
 */
function destination(): ReturnType<typeof pino.destination> {
  if (!stdout) {
    const dest = pino.destination({ dest: 1, sync: true, minLength: 4096 });
    setInterval(() => dest.flush(), FLUSH_INTERVAL_MS).unref();
    process.on('exit', () => {
      try {
        dest.flushSync();
      } catch {
        // stdout was closed by its reader: there is nowhere left to write.
      }
    });
    stdout = dest;
  }
  return stdout;
}

/** Structured logs on stdout, one JSON object per line; `bindings` go into every line (the sandbox's `sandbox: true`). */
export function createLogger(level: string, bindings?: Record<string, unknown>): Logger {
  return pino({ level, base: bindings, timestamp: pino.stdTimeFunctions.isoTime }, destination());
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
 * up on would otherwise add half a dozen warnings of its own.
 */
export function routeConsoleTo(logger: Logger): void {
  const levels: Record<'error' | 'warn' | 'info' | 'log' | 'debug', Level> = { error: 'warn', warn: 'warn', info: 'info', log: 'info', debug: 'debug' };
  for (const [method, level] of Object.entries(levels) as [keyof typeof levels, Level][]) {
    console[method] = (...args: unknown[]) => {
      const from = callerPackage();
      const lineLevel = from && CHAIN_CLIENT.test(from) ? 'debug' : level;
      const [date, origin, ...values] = args;
      const tagged = typeof date === 'string' && POLKADOT_DATE.test(date) && typeof origin === 'string' ? POLKADOT_ORIGIN.exec(origin)?.[1] : undefined;
      if (tagged) logger[lineLevel]({ console: method, origin: tagged }, format(...values));
      else logger[lineLevel]({ console: method, origin: from ?? 'console' }, format(...args));
    };
  }
}
