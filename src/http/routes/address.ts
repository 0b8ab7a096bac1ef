import type { Router } from 'express';
import * as lookups from '../../service/lookups';
import { parseInput } from '../../schemas/parse';
import { convertSs58Query } from '../../schemas/lookups';
import { sendJson } from '../json';
import type { RouteContext } from '../context';

export function addressRoutes(router: Router, _ctx: RouteContext): void {
  router.get('/convert-ss58', (req, res) => {
    const { address, chain } = parseInput(convertSs58Query, req.query, 'query');
    sendJson(res, lookups.convertSs58(address, chain));
  });
}
