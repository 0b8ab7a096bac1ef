import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { JSON_TYPE, toJson } from './json';
import { carriesBody } from './json-body';
import { routedPath } from './routed-path';

/** Answers smaller than this are sent plain: compression would save next to nothing. */
export const COMPRESS_MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip';

/** One representation of a cached answer: its bytes, its ETag, its Content-Encoding. */
interface Variant {
  bytes: Buffer;
  etag: string;
  encoding?: Encoding;
  /** Its 304's headers and its 200's, as [name, value, ...], for an answer with no Vary of its own yet (made once). */
  notModified: readonly string[];
  ok: readonly string[];
}

/** A variant, with the headers it is sent with made once. */
function variantOf(bytes: Buffer, etag: string, encoding?: Encoding): Variant {
  return { bytes, etag, encoding, notModified: variantHeaders(etag, 'Accept-Encoding'), ok: variantHeaders(etag, 'Accept-Encoding', encoding, bytes.length) };
}

/** ETag, no-cache and Vary, and for a 200 (with its length) the type and coding. */
function variantHeaders(etag: string, vary: string, encoding?: Encoding, length?: number): string[] {
  const headers = ['ETag', etag, 'Cache-Control', 'no-cache', 'Vary', vary];
  if (length === undefined) return headers;
  headers.push('Content-Type', JSON_TYPE);
  if (encoding) headers.push('Content-Encoding', encoding);
  headers.push('Content-Length', String(length));
  return headers;
}

/** A cached answer: its variants, the request lines known to lead to it, the route that answers it. */
export interface Entry {
  key: string;
  plain: Variant;
  /** Compressed variants, made on the first request that asks for them (off the event loop). */
  br?: Variant | Promise<Variant>;
  gzip?: Variant | Promise<Variant>;
  /** Request lines (GET URL, or POST URL and body) known to lead to this entry. */
  aliases: { line: string; postUrl?: string }[];
  /** The full path template of the route that answers it (`/v2/assets/:chain`). */
  route?: string;
  /** What the entry holds in memory: bytes of every variant, key and aliases. */
  size: number;
}

/** What the LRU holds for an entry: a new one each time the entry grows, as lru-cache sizes a value when it is set. */
interface Held {
  entry: Entry;
}

const compressors: Record<Encoding, (bytes: Buffer) => Promise<Buffer>> = {
  // Quality 9 of 11: within a few per cent of the best ratio at a small fraction of its time
  // (quality 11 takes seconds for the 1 MB router pairs answer).
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
};

/** The codings cached answers are kept in, brotli first: it is the smaller. */
const CODINGS: readonly Encoding[] = ['br', 'gzip'];

/** negotiator 1's `encoding`, with the `preferred` option that @types/negotiator (written for 0.6) lacks. */
type EncodingNegotiator = { encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined };

/**
 * The coding to send for an Accept-Encoding header: brotli when the client takes it at least as
 * willingly as gzip, else gzip, else none (`*` stands for codings not named; q=0 refuses).
 * Headers repeat from client to client, so answers are memoised (bounded).
 */
const negotiated = new LRUCache<string, Encoding | 'identity'>({ max: 256 });
function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  let choice = negotiated.get(header);
  if (choice === undefined) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as EncodingNegotiator;
    choice = (negotiator.encoding(CODINGS, { preferred: CODINGS }) as Encoding | undefined) ?? 'identity';
    negotiated.set(header, choice);
  }
  return choice === 'identity' ? undefined : choice;
}

/** The Vary the on-the-fly compression gives every answer (too small to compress or not): Accept-Encoding after what is set. */
export function varyAcceptEncoding(res: ServerResponse): string {
  const vary = res.getHeader('Vary');
  return vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding';
}

/**
 * Writes a variant: ETag, no-cache and Vary, then the bytes, or 304 for the ETag the client holds.
 * `head` carries headers not set on the response yet, as [name, value, ...]: one writeHead costs
 * less than a setHeader each on this path. The variant's own headers were made with it, unless the
 * answer already has a Vary (a CORS origin other than `*`) to merge.
 */
function sendVariant(req: IncomingMessage, res: ServerResponse, variant: Variant, head: readonly string[]): void {
  const notModified = req.headers['if-none-match'] === variant.etag;
  const own = res.hasHeader('Vary')
    ? variantHeaders(variant.etag, varyAcceptEncoding(res), variant.encoding, notModified ? undefined : variant.bytes.length)
    : notModified
      ? variant.notModified
      : variant.ok;
  const headers = head.length > 0 ? head.concat(own) : own;
  if (notModified) {
    res.writeHead(304, headers as string[]).end();
    return;
  }
  // Cached bytes go straight to the socket: Express's send() would only recompute headers.
  res.writeHead(200, headers as string[]).end(req.method === 'HEAD' ? undefined : variant.bytes);
}

/** Keys (and request lines) longer than this are kept as their hash: they carry client input. */
const MAX_KEY_LENGTH = 200;
/** At most this many request lines lead to one entry by the fast paths; others take the route. */
const MAX_ALIASES = 8;
/** POST bodies up to this size are remembered as request lines (larger ones always take the route). */
const MAX_ALIAS_BODY = 1024;

function cacheKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `#${createHash('sha256').update(key).digest('base64url')}`;
}

/** Request lines: a GET (or HEAD) by its URL, a POST by its URL and parsed body. */
const getLine = (url: string): string => cacheKey(`GET ${url}`);
const postLine = (url: string, body: unknown): string => cacheKey(`POST ${url} ${JSON.stringify(body)}`);

/** The request line of a cacheable request: method, URL and (for a small POST) its parsed body. */
function requestLine(req: Request): string | undefined {
  if (req.method === 'GET' || req.method === 'HEAD') return getLine(req.originalUrl);
  if (req.method !== 'POST' || Number(req.headers['content-length'] ?? Infinity) > MAX_ALIAS_BODY) return undefined;
  return postLine(req.originalUrl, req.body);
}

/**
 * Registry answers never change while the process runs, so each is serialized once and served as
 * bytes with an ETag, and, for answers of 1 kB or more, as gzip and brotli variants made once
 * (each with its own ETag) for clients that accept them. The cache is bounded by the bytes it
 * holds (variants included; the least recently used entry goes first), and keys by length.
 *
 * A request that reached an entry once is remembered by its request line, so that the next one
 * is answered before routing and validation (`answerKnown`): the answer of a cached route depends
 * on nothing but its method, URL and body, and the headers `sendVariant` looks at.
 */
export class ResponseCache {
  /** Entries by key, least recently used first out once their sizes pass the bound. */
  private readonly entries: LRUCache<string, Held>;
  private readonly byLine = new Map<string, Entry>();
  /** URLs of the POST lines held, and how many each: other POSTs skip making a request line. */
  private readonly postUrls = new Map<string, number>();

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {
    this.entries = new LRUCache<string, Held>({
      maxSize: maxBytes,
      sizeCalculation: (held) => held.entry.size,
      // After each change: an entry no longer held (evicted, or grown past the bound) takes its
      // request lines with it; one re-counted after it grew is still held.
      disposeAfter: (held, key) => {
        if (this.entries.peek(key)?.entry !== held.entry) this.forgetLines(held.entry);
      },
    });
  }

  send(req: Request, res: Response, key: string, compute: () => unknown): void {
    const k = cacheKey(key);
    const entry = this.entries.get(k)?.entry ?? this.store(k, compute());
    entry.route ??= `${routedPath(req.baseUrl)}${(req.route as { path?: string } | undefined)?.path ?? ''}`;
    const line = requestLine(req);
    if (line !== undefined && this.entries.has(k) && !this.byLine.has(line) && entry.aliases.length < MAX_ALIASES) {
      const postUrl = req.method === 'POST' ? req.originalUrl : undefined;
      entry.aliases.push({ line, postUrl });
      this.byLine.set(line, entry);
      if (postUrl !== undefined) this.postUrls.set(postUrl, (this.postUrls.get(postUrl) ?? 0) + 1);
      this.grow(entry, line.length + (postUrl?.length ?? 0));
    }
    this.write(req, res, entry);
  }

  /** Middleware: answers a request whose request line reached an entry before; others go on. */
  readonly answerKnown = (req: Request, res: Response, next: NextFunction): void => {
    const known = this.byLine.size > 0 && (req.method !== 'POST' || this.postUrls.has(req.originalUrl));
    const line = known ? requestLine(req) : undefined;
    const entry = line === undefined ? undefined : this.byLine.get(line);
    if (!entry) return next();
    // What reads req.route after the answer (request metrics) sees the route that answers it.
    req.route = { path: entry.route };
    this.touch(entry);
    this.write(req, res, entry);
  };

  /** The entry a body-less GET or HEAD reached before, if any (read on Node's request, before Express). */
  knownGet(req: IncomingMessage): Entry | undefined {
    if (this.byLine.size === 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    if (carriesBody(req)) return undefined;
    return this.byLine.get(getLine(req.url ?? ''));
  }

  /** Whether a POST may reach an entry by its request line: its URL led to one, and its body is small. */
  mayKnowPost(req: IncomingMessage): boolean {
    return req.method === 'POST' && this.postUrls.has(req.url ?? '') && Number(req.headers['content-length']) <= MAX_ALIAS_BODY;
  }

  /** The entry a POST with this (parsed) body reached before, if any. */
  knownPost(req: IncomingMessage, body: unknown): Entry | undefined {
    return this.byLine.get(postLine(req.url ?? '', body));
  }

  /** Sends a known entry: the bytes (or a compressed variant) with ETag, or 304; `head` as for sendVariant. */
  sendKnown(req: IncomingMessage, res: ServerResponse, entry: Entry, head: readonly string[]): void {
    this.touch(entry);
    this.write(req, res, entry, head);
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held: every variant, keys and request lines. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  private store(key: string, value: unknown): Entry {
    const bytes = Buffer.from(toJson(value));
    const etag = `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
    const entry: Entry = { key, plain: variantOf(bytes, etag), aliases: [], size: 0 };
    // An answer larger than the whole cache is served and forgotten.
    if (bytes.length + key.length > this.maxBytes) return entry;
    this.grow(entry, bytes.length + key.length);
    return entry;
  }

  private write(req: IncomingMessage, res: ServerResponse, entry: Entry, head: readonly string[] = []): void {
    const compressible = entry.plain.bytes.length >= COMPRESS_MIN_BYTES;
    const encoding = compressible ? preferredEncoding(req.headers['accept-encoding']) : undefined;
    if (!encoding) return sendVariant(req, res, entry.plain, head);
    const variant = entry[encoding] ?? this.compress(entry, encoding);
    if (!(variant instanceof Promise)) return sendVariant(req, res, variant, head);
    variant.then(
      (ready) => sendVariant(req, res, ready, head),
      () => sendVariant(req, res, entry.plain, head),
    );
  }

  /** Starts making a compressed variant; concurrent requests wait on the same promise. */
  private compress(entry: Entry, encoding: Encoding): Promise<Variant> {
    const pending = compressors[encoding](entry.plain.bytes).then(
      (bytes): Variant => {
        const variant = variantOf(bytes, `${entry.plain.etag.slice(0, -1)}-${encoding}"`, encoding);
        entry[encoding] = variant;
        if (this.entries.peek(entry.key)?.entry === entry) this.grow(entry, bytes.length);
        return variant;
      },
      (error: unknown) => {
        entry[encoding] = undefined;
        throw error;
      },
    );
    entry[encoding] = pending;
    return pending;
  }

  /** Marks an entry as the most recently used. */
  private touch(entry: Entry): void {
    this.entries.get(entry.key);
  }

  /** Accounts for bytes an entry holds: (re-)set, so that the least recently used entries beyond the bound go. */
  private grow(entry: Entry, bytes: number): void {
    entry.size += bytes;
    this.entries.set(entry.key, { entry });
  }

  /** Forgets the request lines that led to an entry no longer held. */
  private forgetLines(entry: Entry): void {
    for (const { line, postUrl } of entry.aliases) {
      this.byLine.delete(line);
      if (postUrl === undefined) continue;
      const count = (this.postUrls.get(postUrl) ?? 1) - 1;
      if (count > 0) this.postUrls.set(postUrl, count);
      else this.postUrls.delete(postUrl);
    }
  }
}
