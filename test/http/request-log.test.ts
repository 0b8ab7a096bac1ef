// The request log line is joined from pino's own pieces when nothing in the logger's options would
// change it (src/http/request-log.ts): it must be pino's line byte for byte, and any logger whose
// options change lines must still get its lines from pino.
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { Writable } from 'node:stream';
import pino, { type Logger, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { logRequest } from '../../src/http/request-log';
import { createLogger } from '../../src/logger';

/** A logger writing into `lines`, one string per line as written. */
function capturing(options: LoggerOptions = {}): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { logger: pino({ level: 'info', timestamp: () => ',"time":"2026-12-07T18:00:00.123Z"', ...options }, sink), lines };
}

/** Logs one request line as the service does, then the same fields through pino's own path: both lines written. */
async function bothWays(logger: Logger, lines: string[], id: string, method: string, url: string, status: number): Promise<[string, string]> {
  logRequest(logger, id, method, url, status, process.hrtime.bigint());
  await new Promise((resolve) => setImmediate(resolve));
  const ours = lines.at(-1) ?? '';
  const written = JSON.parse(ours) as { ms?: number; fields?: { ms: number } };
  const ms = written.ms ?? written.fields?.ms;
  const fields = { reqId: id, method, path: url.slice(0, 256), status, ms };
  if (status >= 500) logger.error(fields, 'request failed');
  else logger.info(fields, 'request');
  await new Promise((resolve) => setImmediate(resolve));
  return [ours, lines.at(-1) ?? ''];
}

const URLS = [
  '/v2/chains',
  '/v5/assets/AssetHubPolkadot?x="1"&y=\\',
  `/v5/${'a'.repeat(120)}`,
  `/v5/${'b'.repeat(300)}`,
  '/v5/caf\u00e9/\u007f',
  '/v5/tab\there',
];

describe('the request log line', () => {
  it.each([
    ['the default bindings', {}],
    ['bindings of its own, nulls and quotes among them', { base: { sandbox: true, note: 'a "quoted" value', none: null } }],
    ['no time', { timestamp: false }],
    ['a custom level formatter', { formatters: { level: (label: string) => ({ severity: label.toUpperCase() }) } }],
    ['CRLF line ends', { crlf: true }],
  ])('with %s: pino\'s own line, byte for byte', async (_name, options: LoggerOptions) => {
    const { logger, lines } = capturing(options);
    const child = logger.child({ scope: 'http' });
    for (const url of URLS) {
      for (const status of [200, 304, 429, 500]) {
        const [ours, theirs] = await bothWays(logger, lines, '3b241101-e2bb-4255-8caf-4136c566a962', 'GET', url, status);
        expect(ours).toBe(theirs);
        const [childOurs, childTheirs] = await bothWays(child, lines, 'wallet-42', 'POST', url, status);
        expect(childOurs).toBe(childTheirs);
      }
    }
  });

  it('the service\'s own logger (its time and destination) writes the same fields as pino', () => {
    const logger = createLogger('info', { sandbox: true });
    const written: string[] = [];
    const stream = (logger as unknown as Record<symbol, { write(s: string): boolean }>)[pino.symbols.streamSym];
    const write = stream.write.bind(stream);
    stream.write = (line: string) => written.push(line) > 0;
    try {
      logRequest(logger, 'wallet-42', 'GET', '/v2/chains', 200, process.hrtime.bigint());
    } finally {
      stream.write = write;
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\{"level":30,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","sandbox":true,"reqId":"wallet-42","method":"GET","path":"\/v2\/chains","status":200,"ms":[\d.]+,"msg":"request"\}\n$/);
  });

  it.each([
    ['a mixin', { mixin: () => ({ extra: 1 }) }, (line: Record<string, unknown>) => expect(line.extra).toBe(1)],
    ['a log formatter', { formatters: { log: (o: object) => ({ ...o, formatted: true }) } }, (line: Record<string, unknown>) => expect(line.formatted).toBe(true)],
    ['redaction of a field', { redact: ['path'] }, (line: Record<string, unknown>) => expect(line.path).toBe('[Redacted]')],
    ['a serializer of a field', { serializers: { method: (m: string) => m.toLowerCase() } }, (line: Record<string, unknown>) => expect(line.method).toBe('get')],
    ['a message prefix', { msgPrefix: 'http: ' }, (line: Record<string, unknown>) => expect(line.msg).toBe('http: request')],
    ['a nested key', { nestedKey: 'fields' }, (line: Record<string, unknown>) => expect(line.fields).toMatchObject({ path: '/v2/chains' })],
    ['a logMethod hook', { hooks: { logMethod(this: Logger, args: Parameters<Logger['info']>, method: Logger['info']) { method.apply(this, [{ ...(args[0] as object), hooked: true }, ...args.slice(1)] as Parameters<Logger['info']>); } } }, (line: Record<string, unknown>) => expect(line.hooked).toBe(true)],
  ])('a logger with %s gets the line from pino, its options applied', async (_name, options, check) => {
    const { logger, lines } = capturing(options as LoggerOptions);
    const [ours, theirs] = await bothWays(logger, lines, 'wallet-42', 'GET', '/v2/chains', 200);
    expect(ours).toBe(theirs);
    check(JSON.parse(ours) as Record<string, unknown>);
  });

  it('a level that leaves out info writes nothing, yet a 500 at warn is written; a destination reading each line\'s metadata is told it', async () => {
    const { logger, lines } = capturing({ level: 'warn' });
    logRequest(logger, 'wallet-42', 'GET', '/v2/chains', 200, process.hrtime.bigint());
    logRequest(logger, 'wallet-42', 'GET', '/v2/chains', 500, process.hrtime.bigint());
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['request failed']);

    const seen: { level: number; msg: string }[] = [];
    const multi = pino({ level: 'info' }, pino.multistream([{ stream: { write: () => undefined }, level: 'info' }]));
    const metadata = (multi as unknown as Record<symbol, { lastLevel: number; lastMsg: string }>)[pino.symbols.streamSym];
    logRequest(multi, 'wallet-42', 'GET', '/v2/chains', 200, process.hrtime.bigint());
    seen.push({ level: metadata.lastLevel, msg: metadata.lastMsg });
    expect(seen).toEqual([{ level: 30, msg: 'request' }]);
  });

  it('while pino\'s lines are traced, the request line is made by pino and traced', () => {
    const { logger } = capturing();
    const traced: unknown[] = [];
    const onStart = (message: unknown) => traced.push(message);
    const channel = tracingChannel('pino_asJson');
    subscribe('tracing:pino_asJson:start', onStart);
    try {
      expect(channel.hasSubscribers).toBe(true);
      logRequest(logger, 'wallet-42', 'GET', '/v2/chains', 200, process.hrtime.bigint());
    } finally {
      unsubscribe('tracing:pino_asJson:start', onStart);
    }
    expect(traced).toHaveLength(1);
  });
});
