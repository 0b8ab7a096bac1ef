import type { TChain } from '@paraspell/sdk-pjs';
import type { Request, Response, Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { balanceBody } from '../../schemas/preflight';
import { sendJson } from '../json';
import type { RouteContext } from '../context';

/** Balances: `/v5` takes `address`, `/v2` `recipient` (or `address`); currency optional, native by default. */
export function balanceRoutes(router: Router, { family, services, chainRoutes }: RouteContext): void {
  const schema = balanceBody(family);
  const handler = async (req: Request, res: Response, chain: TChain) => {
    const body = parseInput(schema, req.body, 'body');
    sendJson(res, await services.preflight.balance({ chain, ...body }));
  };
  chainRoutes.route(router, family, 'post', '/balance/:chain', handler);
  // The /v2 listing (and the former /v4 path) carry a trailing /asset segment; both families
  // answer there so that no path works in one family only.
  chainRoutes.route(router, family, 'post', '/balance/:chain/asset', handler);
}
