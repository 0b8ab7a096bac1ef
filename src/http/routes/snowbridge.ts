import type { Router } from 'express';
import { evmApproveBody } from '../../schemas/evm-approve';
import { paraEthFeesQuery } from '../../schemas/para-eth-fees';
import { parseInput } from '../../schemas/parse';
import { buildApprove } from '../../service/evm/approve';
import { postJson } from '../post-json';
import { sendJson } from '../json';
import type { RouteContext } from '../context';

/** The two Ethereum-side helpers of Snowbridge transfers: the gateway's ERC-20 approval, and the fees to Ethereum. */
export function snowbridgeRoutes(router: Router, { family, services }: RouteContext): void {
  postJson(router, '/evm-approve', evmApproveBody(family), async (request) => buildApprove(request));

  router.get('/x-transfer/para-eth-fees', async (req, res) => {
    const query = parseInput(paraEthFeesQuery, req.query, 'query');
    sendJson(res, await services.bridgeFees.paraEthFees(query));
  });
}
