// One try to deliver a webhook: signed POST, one deadline, a receiver that may be hostile. The
// backends decide when to try (and again); this module only makes a try and says how it went.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { AddressRefusedError, type AddressGuard } from '../../chains/address-guard';
import { Slots } from '../../chains/slots';
import { projectRoot } from '../../project-root';
import type { DeliveryResult, Webhook, WatchEvent } from './model';
import { ReceiverPool } from './receiver-pool';
import { signatureHeaders } from './signing';

/** How much of an answer's body is read (then dropped): receivers answer a word or nothing. */
export const MAX_ANSWER_BYTES = 16 * 1024;
/** Response headers past this are a parse error, whatever --max-http-header-size says. */
const MAX_HEADER_BYTES = 16 * 1024;
/**
 * How long a receiver's connection waits, idle, for the next try before it is closed. Under node's
 * http server's own 5 s, so ours closes first; a receiver that announces less (`keep-alive:
 * timeout=`) is believed (node's Agent).
 */
export const IDLE_MS = 4_000;

const USER_AGENT = `xcm-gateway/${(JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version} (webhooks)`;

/** How one try ended, for metrics: `delivered` is the only delivery. */
export type DeliveryOutcome =
  | 'delivered'
  /** The receiver answered, not 2xx and not 3xx. */
  | 'rejected'
  /** A 3xx: not followed. */
  | 'redirected'
  /** No answer within the deadline, or none before the try was cut (WATCH_DELIVERY_CUT_MS). */
  | 'timeout'
  /** Not dialled: the URL or its address is refused. */
  | 'refused'
  /** Connection refused or reset, a TLS or HTTP protocol error. */
  | 'failed';

export interface DeliveryTry {
  event: WatchEvent;
  result: DeliveryResult;
  outcome: DeliveryOutcome;
  /** From the slot being taken to the answer read (or the socket closed), in ms. */
  durationMs: number;
  /** Bytes of the answer's body read before it was dropped (at most one read past MAX_ANSWER_BYTES). */
  answerBytes: number;
}

/** Told of every try once it ended (metrics: outcomes, durations, latency from `event.settledAt`). */
export interface DeliveryObserver {
  tried(report: DeliveryTry): void;
}

export interface SenderOptions {
  /** Checks the URL's host and every address it resolves to; the socket dials only those. */
  guard: AddressGuard;
  /** WATCH_DELIVERY_TIMEOUT_MS: one deadline over resolving, connecting, the answer's headers and reading its body. */
  timeoutMs: number;
  /** WATCH_MAX_DELIVERIES: tries in flight at once; the next waits for a slot. Also the most idle connections kept in all. */
  maxInFlight: number;
  /** WATCH_MAX_DELIVERIES_PER_HOST: the most idle connections kept to one receiver (default maxInFlight). */
  maxIdlePerHost?: number;
  /** How long an idle connection is kept (default IDLE_MS; tests shorten it). */
  idleMs?: number;
  observer?: DeliveryObserver;
  /** The clock that stamps `webhook-timestamp` (tests move it to show a retry is signed anew). */
  now?: () => Date;
}

type Attempt = Pick<DeliveryTry, 'result' | 'outcome'>;

const refused = (error: string): Attempt => ({ result: { ok: false, error }, outcome: 'refused' });

/** What a 3-digit answer means for the event. */
function judge(code: number): Attempt {
  if (code >= 200 && code < 300) return { result: { ok: true, code }, outcome: 'delivered' };
  if (code >= 300 && code < 400) return { result: { ok: false, code, error: `answered ${code}: redirects are not followed` }, outcome: 'redirected' };
  return { result: { ok: false, code, error: `answered ${code}` }, outcome: 'rejected' };
}

/**
 * Sends webhooks. `send` never rejects: every way a try can go wrong is a `DeliveryResult` with
 * `ok: false` and an error that names the host, never the URL (whose path or query may carry the
 * receiver's token).
 */
export class WebhookSender {
  readonly #options: SenderOptions;
  readonly #slots: Slots;
  readonly #pool: ReceiverPool;
  /** Tries asked for and not finished: the first `maxInFlight` of them hold slots, the rest wait. */
  #pending = 0;

  constructor(options: SenderOptions) {
    this.#options = options;
    this.#slots = new Slots(options.maxInFlight);
    this.#pool = new ReceiverPool({ perHost: options.maxIdlePerHost ?? options.maxInFlight, total: options.maxInFlight, idleMs: options.idleMs ?? IDLE_MS });
  }

  /** Idle receiver connections kept now. */
  get idle(): number {
    return this.#pool.idle;
  }

  /** Closes the kept connections (shutdown); tries in flight end as their sockets close. */
  close(): void {
    this.#pool.close();
  }

  /** Tries holding a slot now. */
  get inFlight(): number {
    return Math.min(this.#pending, this.#options.maxInFlight);
  }

  /** Tries waiting for a slot. */
  get waiting(): number {
    return Math.max(0, this.#pending - this.#options.maxInFlight);
  }

  /** `cut`: aborts the try (the backend cut it), which then ends at once as unanswered. */
  async send(webhook: Webhook, event: WatchEvent, cut?: AbortSignal): Promise<DeliveryResult> {
    this.#pending++;
    const release = await this.#slots.acquire();
    const started = performance.now();
    try {
      const { attempt, answerBytes } = await this.#try(webhook, event, cut, started);
      try {
        this.#options.observer?.tried({ event, ...attempt, durationMs: performance.now() - started, answerBytes });
      } catch {
        // Metrics never decide a delivery.
      }
      return attempt.result;
    } finally {
      this.#pending--;
      release();
    }
  }

  /** Resolves once the socket is gone, never rejects. */
  #try(webhook: Webhook, event: WatchEvent, cut: AbortSignal | undefined, started: number): Promise<{ attempt: Attempt; answerBytes: number }> {
    const done = (attempt: Attempt) => Promise.resolve({ attempt, answerBytes: 0 });
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      return done(refused('the webhook URL is not a valid URL'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return done(refused(`the webhook URL's scheme ${url.protocol} is not http or https`));
    if (url.username !== '' || url.password !== '') return done(refused('the webhook URL carries credentials'));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // IP literals never reach `lookup`: they are judged here.
    try {
      this.#options.guard.checkLiteral(host);
    } catch (error) {
      return done(refused((error as Error).message));
    }

    const { timeoutMs } = this.#options;
    const body = Buffer.from(event.body);
    let signature: ReturnType<typeof signatureHeaders>;
    try {
      signature = signatureHeaders(webhook.secret, event.id, event.body, this.#options.now?.() ?? new Date());
    } catch {
      // A record from a store that went wrong; the schema admits only whsec_ secrets.
      return done(refused('the webhook secret is not a whsec_ secret'));
    }
    const headers = { 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': USER_AGENT, ...signature };

    return new Promise((resolve) => {
      let decided: Attempt | undefined;
      let answerBytes = 0;
      let finished = false;
      let request: http.ClientRequest | undefined;
      /** `keep`: the answer was read to its end, so the socket may serve the next try (the agent decides). */
      const finish = (attempt: Attempt, keep = false): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        cut?.removeEventListener('abort', onCut);
        // Anything else (cut, late, too long, broken): whatever is left of the answer goes with the socket.
        if (!keep) request?.destroy();
        resolve({ attempt, answerBytes });
      };
      const timer = setTimeout(() => {
        finish(decided ?? { result: { ok: false, error: `no answer from ${url.host} within ${timeoutMs} ms`, slow: true }, outcome: 'timeout' });
      }, timeoutMs);
      // Cut: unanswered so far, counted as a timeout (an answer's code already read stands).
      const onCut = (): void => {
        const ms = Math.round(performance.now() - started);
        finish(decided ?? { result: { ok: false, error: `no answer from ${url.host} within ${ms} ms (cut: other clients' webhooks waited for a slot)`, slow: true }, outcome: 'timeout' });
      };
      if (cut?.aborted) {
        onCut();
        return;
      }
      cut?.addEventListener('abort', onCut, { once: true });
      const https = url.protocol === 'https:';
      const send = (): void => {
        try {
          // A kept connection to this host and port if there is one; a new one dials only an address
          // the guard's `lookup` checked.
          request = (https ? httpsRequest : http.request)({
            method: 'POST',
            host,
            port: url.port === '' ? undefined : Number(url.port),
            path: url.pathname + url.search,
            headers,
            agent: https ? this.#pool.https : this.#pool.http,
            lookup: this.#options.guard.lookup,
            maxHeaderSize: MAX_HEADER_BYTES,
          });
        } catch (error) {
          finish({ result: { ok: false, error: `could not deliver to ${url.host}: ${(error as Error).message}` }, outcome: 'failed' });
          return;
        }
        const sent = request;
        sent.on('error', (error: NodeJS.ErrnoException) => {
          if (finished || sent !== request) return;
          if (decided) return finish(decided);
          if (error instanceof AddressRefusedError) return finish(refused(error.message));
          // A kept connection the receiver closed as this try went out on it: nothing was answered,
          // so the try goes again on another (in the end a new one), within the same deadline. The
          // receiver may have read the request: it is the same event id, which receivers dedupe.
          if (sent.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return send();
          finish({ result: { ok: false, error: `could not deliver to ${url.host}: ${error.code ?? error.message}` }, outcome: 'failed' });
        });
        sent.on('response', (answer) => {
          const verdict = judge(answer.statusCode ?? 0);
          decided = verdict;
          answer.on('data', (chunk: Buffer) => {
            answerBytes += chunk.length;
            if (answerBytes >= MAX_ANSWER_BYTES) finish(verdict);
          });
          // Read to its end: the only way the socket may be kept.
          answer.on('end', () => finish(verdict, true));
          // The code decided the try; an answer cut short after it changes nothing.
          answer.on('close', () => finish(verdict));
          answer.on('error', () => finish(verdict));
        });
        sent.end(body);
      };
      send();
    });
  }
}

/** The sender the config asks for. */
export function senderFrom(
  config: { WATCH_DELIVERY_TIMEOUT_MS: number; WATCH_MAX_DELIVERIES: number; WATCH_MAX_DELIVERIES_PER_HOST: number },
  guard: AddressGuard,
  observer?: DeliveryObserver,
): WebhookSender {
  return new WebhookSender({
    guard,
    timeoutMs: config.WATCH_DELIVERY_TIMEOUT_MS,
    maxInFlight: config.WATCH_MAX_DELIVERIES,
    maxIdlePerHost: Math.min(config.WATCH_MAX_DELIVERIES_PER_HOST, config.WATCH_MAX_DELIVERIES),
    observer,
  });
}
