import type { NextFunction, Request, Router } from 'express';
import { ApiError } from '../../errors';
import type { RouteContext } from '../context';

/** Endpoints the contract removed answer 410 and name their replacement (an operation of the same family). */
const REMOVED: { method: 'get' | 'post'; path: string; use?: { operation: string; then: string } }[] = [
  { method: 'post', path: '/asset-claim' },
  { method: 'get', path: '/assets/:chain/id', use: { operation: 'POST /assets/:chain/asset-info', then: 'read assetId' } },
  { method: 'get', path: '/assets/:chain/decimals', use: { operation: 'POST /assets/:chain/asset-info', then: 'read decimals' } },
  { method: 'get', path: '/assets/:chain/has-support', use: { operation: 'POST /assets/:chain/asset-info', then: 'check for a non-null result' } },
];

export function removedRoutes(router: Router, { family }: RouteContext): void {
  for (const { method, path, use } of REMOVED) {
    const replacement = use ? `use ${use.operation.replace(' /', ` /${family}/`)} and ${use.then}` : 'there is no replacement: build the asset-claim call yourself';
    const gone = (): never => {
      throw new ApiError(410, 'EndpointRemovedError', `${method.toUpperCase()} /${family}${path} was removed; ${replacement}`);
    };
    router[method](path, gone);
    // Any other method on the path is told the same, not 404: a layer outside the route table
    // (which lists the documented method only), taking the exact path alone.
    router.use(path, (req: Request, _res, next: NextFunction) => (req.path === '/' ? gone() : next()));
  }
}
