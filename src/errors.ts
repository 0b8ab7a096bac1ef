// Every failure the service reports is an ApiError: one status, one machine-readable
// kind and a message a person can act on. The HTTP layer turns it into the JSON body.

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** More fields of the answer's body, beside `details` (e.g. an AmbiguousAssetError's `candidates`). */
    readonly fields?: Record<string, unknown>,
  ) {
    // A 4xx is an answer, never logged with its stack: capturing one cost about 5% of an unknown-chain 400.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = kind;
  }
}

export const badRequest = (kind: string, message: string, details?: ErrorDetail[]): ApiError =>
  new ApiError(400, kind, message, details);

export const notFound = (kind: string, message: string): ApiError => new ApiError(404, kind, message);

/** No endpoint of a chain answered within the connect deadline. */
export class ProviderUnavailableError extends ApiError {
  constructor(
    readonly chain: string,
    readonly endpoints: readonly string[],
    readonly reason: string,
    retryAfterSeconds = 5,
  ) {
    super(
      503,
      'ProviderUnavailableError',
      `Chain ${chain} is unreachable: ${reason} (endpoints tried: ${endpoints.join(', ') || 'none'})`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** The work of a request overran its deadline after the chain was reached. */
export class DeadlineExceededError extends ApiError {
  constructor(what: string, ms: number) {
    super(504, 'DeadlineExceededError', `${what} did not finish within ${ms} ms`);
  }
}

/** A client went over its request budget; the message and Retry-After say when to come back. */
export class RateLimitExceededError extends ApiError {
  constructor(limit: number, scope: string, retryAfterSeconds: number) {
    super(
      429,
      'RateLimitExceededError',
      `Rate limit exceeded: ${limit} ${scope} requests per minute; retry in ${retryAfterSeconds} s`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/**
 * A client already has DNS_MAX_LOOKUPS_PER_CLIENT name lookups in flight: refused at once, nothing
 * was asked. `code` is what a socket error carries when a dial meets it.
 */
export class TooManyLookupsError extends ApiError {
  readonly code = 'ELOOKUPSBUSY';
  constructor(limit: number) {
    super(429, 'TooManyLookupsError', `${limit} name lookups (DNS_MAX_LOOKUPS_PER_CLIENT) of this client are in flight; retry once they have ended`, undefined, { 'Retry-After': '1' });
  }
}

/**
 * A client made the service decode METADATA_DECODES_PER_CLIENT_PER_MINUTE runtimes in the last
 * minute (each 170-250 ms of CPU every client's requests share): its next new runtime waits until then.
 */
export class TooManyDecodesError extends ApiError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      429,
      'TooManyDecodesError',
      `This client made the service decode ${limit} chain runtimes (metadata) in the last minute (METADATA_DECODES_PER_CLIENT_PER_MINUTE); a node with a runtime not decoded yet is dialled again in ${retryAfterSeconds} s`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** An X-API-Key that is not in the key file (no key at all is fine: anonymous limits apply). */
export class InvalidApiKeyError extends ApiError {
  constructor() {
    super(401, 'InvalidApiKeyError', 'The X-API-Key header names no known key; send a valid key or none (anonymous limits)');
  }
}

/** A chain answered something this service cannot use: a malformed frame, an RPC error, data that does not decode. */
export class ChainResponseError extends ApiError {
  constructor(
    readonly chain: string,
    detail: string,
  ) {
    super(502, 'ChainResponseError', `Chain ${chain} ${detail}`);
  }
}

/**
 * Call data we built that would not arrive (a hop's destination, asset, fees or beneficiary is
 * wrong): our bug, never answered. The message names the first failing hop; `route` holds every hop.
 */
export class RouteCheckError extends ApiError {
  constructor(message: string, details: ErrorDetail[], route: unknown) {
    super(500, 'RouteCheckError', message, details, undefined, { route });
  }
}
