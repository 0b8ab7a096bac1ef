import type { Router } from 'express';
import { transferBody } from '../../schemas/transfer';
import { batchBody } from '../../schemas/batch';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

export function transferRoutes(router: Router, { family, services }: RouteContext): void {
  postJson(router, '/x-transfer', transferBody(family, { senderRequired: false }), (request) => services.transfers.build(request));
  postJson(router, '/x-transfer-batch', batchBody(family), ({ transfers, options: { mode, ...shared } }) =>
    services.transfers.buildBatch(transfers, mode, shared),
  );
}
