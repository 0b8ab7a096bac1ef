import type { Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { transferBody } from '../../schemas/transfer';
import { batchBody } from '../../schemas/batch';
import { sendJson } from '../respond';
import type { RouteContext } from '../context';

export function transferRoutes(router: Router, { family, services }: RouteContext): void {
  const single = transferBody(family, { senderRequired: false });
  const batch = batchBody(family);

  router.post('/x-transfer', async (req, res) => {
    const request = parseInput(single, req.body, 'body');
    sendJson(res, await services.transfers.build(request));
  });

  router.post('/x-transfer-batch', async (req, res) => {
    const { transfers, options } = parseInput(batch, req.body, 'body');
    const { mode, ...shared } = options;
    sendJson(res, await services.transfers.buildBatch(transfers, mode, shared));
  });
}
