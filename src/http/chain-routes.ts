// Routes with a chain in their path (`/assets/:chain`, `/pallets/:chain/index`, ...) read that chain
// before anything else of the request, so an unknown chain there is the answer whatever else the
// request carries: a 400 UnknownChainError naming the nearest chains. The cached lane sends it
// before Express (src/http/cached-lane.ts), from a body made once per name.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TChain } from '@paraspell/sdk-pjs';
import type { Request, Response, Router } from 'express';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../errors';
import type { Family } from '../schemas/family';
import { chainParams } from '../schemas/lookups';
import { parseInput } from '../schemas/parse';
import { errorFields, type RouteEntry } from './errors';
import { JSON_TYPE, toJson } from './json';
import { varyAcceptEncoding } from './response-cache';
import { pathOf, routedPath } from './routed-path';

const CHAIN = ':chain';

/** A declared chain route a request line names, with the chain as Express decodes it. */
export interface ChainRequest {
  /** The route's full template (`/v5/assets/:chain`), as metrics label it. */
  route: string;
  chain: string;
}

/** The routes whose handler reads the chain of its path first, declared through `route`. */
export class ChainRoutes {
  /** `GET /v5/assets/:chain` -> `/v5/assets/:chain`. */
  private readonly templates = new Map<string, string>();
  /** Where `:chain` stands in the templates' segments. */
  private readonly chainAt = new Set<number>();

  /** Declares (and registers on `router`) a route whose handler gets the chain its path names, read before anything else. */
  route(router: Router, family: Family, method: 'get' | 'post', path: string, handler: (req: Request, res: Response, chain: TChain) => unknown): void {
    const template = `/${family}${path}`;
    this.templates.set(`${method.toUpperCase()} ${template}`, template);
    this.chainAt.add(template.split('/').indexOf(CHAIN));
    router[method](path, (req, res) => handler(req, res, parseInput(chainParams, req.params, 'params').chain));
  }

  /**
   * The chain route `method url` reaches, matched as Express matches (ASCII letters in any case,
   * one trailing slash), and its chain decoded as Express decodes a parameter; undefined for any
   * other request line, and for a chain Express could not decode (it answers that itself).
   */
  find(method: string | undefined, url: string): ChainRequest | undefined {
    const raw = pathOf(url);
    const folded = routedPath(raw).split('/');
    const verb = method === 'HEAD' ? 'GET' : method;
    for (const at of this.chainAt) {
      if (folded.length <= at || folded[at] === '') continue;
      const route = this.templates.get(`${verb} ${folded.map((segment, i) => (i === at ? CHAIN : segment)).join('/')}`);
      if (route === undefined) continue;
      const segment = raw.split('/')[at];
      if (!segment.includes('%')) return { route, chain: segment };
      try {
        return { route, chain: decodeURIComponent(segment) };
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}

/** An unknown chain's answer: its body up to the request id, and the byte length of that part. */
export interface UnknownChainAnswer {
  head: string;
  bytes: number;
}

/** Answers of this many names are kept, the least recently asked first out: random names cannot grow memory. */
const NAMES_HELD = 1_000;
/** Names longer than this are answered without being kept (a name is at most 32 characters): keys stay small. */
const LONGEST_HELD = 64;

/**
 * The 400 a chain route answers for an unknown chain, made once per name and family (the body
 * names the family's routes) with the route's own parsing and error body, and kept (bounded). A
 * name not kept costs what the route's parsing costs: the suggestion is bounded by the names'.
 */
export class UnknownChainAnswers {
  /** By family and name; `false` for a chain the routes take. */
  private readonly held: LRUCache<string, UnknownChainAnswer | false>;

  constructor(
    private readonly routes: RouteEntry[] | undefined,
    max = NAMES_HELD,
  ) {
    this.held = new LRUCache({ max });
  }

  /** The answer for `chain` in `family` (`familyOf` the URL), or undefined when the chain is known. */
  answer(family: string | undefined, chain: string): UnknownChainAnswer | undefined {
    if (chain.length > LONGEST_HELD) return this.make(family, chain) || undefined;
    const key = `${family ?? ''}/${chain}`;
    let found = this.held.get(key);
    if (found === undefined) this.held.set(key, (found = this.make(family, chain)));
    return found || undefined;
  }

  /** Names held (known ones included). */
  get size(): number {
    return this.held.size;
  }

  private make(family: string | undefined, chain: string): UnknownChainAnswer | false {
    try {
      parseInput(chainParams, { chain }, 'params');
      return false;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The body as errorBody writes it, the request id last: cut before its value.
      const head = `${toJson(errorFields(error, family, this.routes)).slice(0, -1)},"requestId":`;
      return { head, bytes: Buffer.byteLength(head) };
    }
  }
}

/** Sends an unknown chain's 400 as the error handler would: `head` as for the cached answers' sendVariant. */
export function sendUnknownChain(req: IncomingMessage, res: ServerResponse, answer: UnknownChainAnswer, id: string, head: readonly string[]): void {
  // Request ids are plain tokens (request-log.ts): JSON as they are.
  const tail = `"${id}"}`;
  const headers = [...head, 'Content-Type', JSON_TYPE, 'Vary', varyAcceptEncoding(res), 'Content-Length', String(answer.bytes + tail.length)];
  res.writeHead(400, headers).end(req.method === 'HEAD' ? undefined : answer.head + tail);
}
