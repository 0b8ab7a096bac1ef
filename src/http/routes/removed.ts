import type { Router } from 'express';
import { ApiError } from '../../errors';
import type { RouteContext } from '../context';

/** Endpoints the contract removed answer 410 and name their replacement. */
const REMOVED: { method: 'get' | 'post'; path: string; replacement: string }[] = [
  { method: 'post', path: '/asset-claim', replacement: 'no replacement: build the asset-claim call yourself' },
  { method: 'get', path: '/assets/:chain/id', replacement: 'POST /assets/:chain/asset-info and read assetId' },
  { method: 'get', path: '/assets/:chain/decimals', replacement: 'POST /assets/:chain/asset-info and read decimals' },
  { method: 'get', path: '/assets/:chain/has-support', replacement: 'POST /assets/:chain/asset-info and check for a non-null result' },
];

export function removedRoutes(router: Router, { family }: RouteContext): void {
  for (const { method, path, replacement } of REMOVED) {
    router[method](path, () => {
      throw new ApiError(410, 'EndpointRemovedError', `${method.toUpperCase()} /${family}${path} was removed; use ${replacement}`);
    });
  }
}
