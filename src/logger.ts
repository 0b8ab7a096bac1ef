import pino, { type Logger } from 'pino';

/**
 * Structured logs on stdout. Lines are buffered (up to 4 KiB) so that a busy server does not
 * pay one write system call per request; the buffer is flushed on shutdown.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** Writes out whatever the logger still buffers. */
export function flushLogger(logger: Logger): void {
  logger.flush();
}
