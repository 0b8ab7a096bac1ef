import { STATUS_CODES } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, type ErrorDetail } from '../errors';
import { FAMILIES } from '../schemas/family';
import { fromSdkError } from '../service/sdk-calls';
import { toJson } from './json';

export interface ErrorBody {
  statusCode: number;
  error: string;
  kind: string;
  message: string;
  details?: ErrorDetail[];
  requestId: string;
}

/** body-parser failures carry a `type`; each maps to the status a client can act on. */
const BODY_ERRORS: Record<string, { status: number; kind: string; message: (e: Error) => string }> = {
  'entity.parse.failed': { status: 400, kind: 'MalformedJsonError', message: (e) => `The body is not valid JSON: ${e.message}` },
  'entity.too.large': { status: 413, kind: 'PayloadTooLargeError', message: (e) => `The body is larger than the service accepts: at most ${String((e as { limit?: number }).limit)} bytes` },
  'encoding.unsupported': { status: 415, kind: 'UnsupportedMediaTypeError', message: (e) => e.message },
  'charset.unsupported': { status: 415, kind: 'UnsupportedMediaTypeError', message: (e) => e.message },
  'request.aborted': { status: 400, kind: 'ValidationError', message: () => 'The request was aborted' },
};

/**
 * Express and its body readers signal other client errors with a 4xx `status`: a path escape
 * that does not decode, a body whose Content-Encoding does not match its bytes.
 */
function clientStatus(error: Error): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

function toApiError(error: unknown): ApiError | undefined {
  const mapped = fromSdkError(error);
  if (mapped instanceof ApiError) return mapped;
  if (!(mapped instanceof Error)) return undefined;
  if ('type' in mapped && typeof mapped.type === 'string') {
    const body = BODY_ERRORS[mapped.type];
    if (body) return new ApiError(body.status, body.kind, body.message(mapped));
  }
  const status = clientStatus(mapped);
  if (status !== undefined) return new ApiError(status, 'MalformedRequestError', `The request could not be read: ${mapped.message}`);
  return undefined;
}

/** A declared route, as the app lists it in `app.locals.routes`. */
export interface RouteEntry {
  method: string;
  path: string;
}

/** An operation a message names: `POST /assets/Hydration/asset-info`. */
const OPERATION = /\b(GET|POST) (\/[\w\-/]*)/g;
const FAMILY_PREFIX = new RegExp(`^/(${FAMILIES.join('|')})/`);

/** Whether `path` is what route template `template` matches (`:chain` takes any one non-empty segment). */
function fits(template: string, path: string): boolean {
  const wanted = template.split('/');
  const given = path.split('/');
  return wanted.length === given.length && wanted.every((segment, i) => segment === given[i] || (segment.startsWith(':') && given[i] !== ''));
}

/** The family a request line's URL names (case as written: `/V5/...` names none), which error messages are told in. */
export const familyOf = (url: string): string | undefined => FAMILY_PREFIX.exec(url)?.[1];

/**
 * Below the HTTP layer nothing knows the family a request came in on, so messages name operations
 * without one (`GET /assets/Hydration lists them`). Each that is a route of the request's family
 * gets its prefix here: a /v2 client is pointed at /v2 paths, a /v5 client at /v5 ones.
 */
function inFamily(family: string | undefined, routes: RouteEntry[] | undefined, text: string): string {
  if (!family || !routes) return text;
  return text.replace(OPERATION, (named, method: string, path: string) => {
    const prefixed = `/${family}${path}`;
    return isRoute(routes, method, prefixed) ? `${method} ${prefixed}` : named;
  });
}

// The operations error messages name are few: each is matched against the app's routes once.
// Bounded, oldest out, as a message may quote a caller's text.
const ROUTE_ANSWERS_HELD = 1_000;
const routeAnswers = new WeakMap<RouteEntry[], Map<string, boolean>>();

/** Whether `method path` is one of `routes`. */
function isRoute(routes: RouteEntry[], method: string, path: string): boolean {
  let answers = routeAnswers.get(routes);
  if (!answers) routeAnswers.set(routes, (answers = new Map()));
  const key = `${method} ${path}`;
  let found = answers.get(key);
  if (found === undefined) {
    found = routes.some((r) => r.method.toUpperCase() === method && fits(r.path, path));
    if (answers.size >= ROUTE_ANSWERS_HELD) answers.delete(answers.keys().next().value as string);
    answers.set(key, found);
  }
  return found;
}

/**
 * An error body without its request id, for a request in `family` (`familyOf` its URL) to an app
 * with `routes`: all it depends on, so that an answer can be made once for many requests.
 */
export function errorFields(error: ApiError, family: string | undefined, routes: RouteEntry[] | undefined): Omit<ErrorBody, 'requestId'> {
  return {
    statusCode: error.status,
    error: STATUS_CODES[error.status] ?? 'Error',
    kind: error.kind,
    message: inFamily(family, routes, error.message),
    ...(error.details ? { details: error.details.map((d) => ({ ...d, message: inFamily(family, routes, d.message) })) } : {}),
    ...error.fields,
  };
}

/** The JSON body of an error answer (also what a stream's `error` event carries). */
export function errorBody(req: Request, error: ApiError): ErrorBody {
  return { ...errorFields(error, familyOf(req.originalUrl), req.app.locals.routes as RouteEntry[] | undefined), requestId: req.id };
}

export function sendError(req: Request, res: Response, error: ApiError): void {
  const body = errorBody(req, error);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.status(error.status).type('application/json').send(toJson(body));
}

export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = toApiError(error);
    if (apiError) {
      sendError(req, res, apiError);
      return;
    }
    logger.error({ reqId: req.id, err: error }, 'unhandled error');
    sendError(req, res, new ApiError(500, 'InternalError', `Internal error; quote request id ${req.id} when reporting it`));
  };
}

/**
 * The path parameters a declared route would have taken from `path` had they not been empty
 * (`/v5/pallets//default` is `/v5/pallets/:chain/default` without its chain).
 */
function emptyParameters(method: string, path: string, routes: RouteEntry[]): string[] | undefined {
  const given = path.split('/');
  if (!given.includes('')) return undefined;
  for (const route of routes) {
    if (route.method.toUpperCase() !== method) continue;
    const wanted = route.path.split('/');
    if (wanted.length !== given.length) continue;
    const missing: string[] = [];
    const fits = wanted.every((segment, i) => {
      if (segment.startsWith(':')) {
        if (given[i] === '') missing.push(segment.slice(1));
        return true;
      }
      return segment === given[i];
    });
    if (fits && missing.length > 0) return missing;
  }
  return undefined;
}

export function notFoundHandler(req: Request, res: Response): void {
  const missing = emptyParameters(req.method, req.path, (req.app.locals.routes as RouteEntry[] | undefined) ?? []);
  if (missing) {
    const details = missing.map((name) => ({ path: `params.${name}`, message: 'is required (the path has an empty segment in its place)' }));
    sendError(req, res, new ApiError(400, 'MissingParameterError', details.map((d) => `${d.path} ${d.message}`).join('; '), details));
    return;
  }
  sendError(req, res, new ApiError(404, 'RouteNotFoundError', `No route ${req.method} ${req.path}; /docs lists them all`));
}
