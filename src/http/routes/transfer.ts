import type { Router } from 'express';
import { transferBody } from '../../schemas/transfer';
import { batchBody } from '../../schemas/batch';
import { metadataHashOption } from '../../schemas/metadata';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

export function transferRoutes(router: Router, { family, services }: RouteContext): void {
  const body = transferBody(family, { senderRequired: false, options: { metadataHash: metadataHashOption } });
  postJson(router, '/x-transfer', body, ({ extraOptions, ...request }) =>
    services.transfers.build(request, { metadataHash: (extraOptions as { metadataHash?: boolean }).metadataHash === true }),
  );
  postJson(router, '/x-transfer-batch', batchBody(family), ({ transfers, options: { mode, metadataHash, ...shared } }) =>
    services.transfers.buildBatch(transfers, mode, shared, { metadataHash }),
  );
}
