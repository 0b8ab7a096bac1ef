import type { Router } from 'express';
import { batchBody } from '../../schemas/batch';
import { transferBuildBody } from '../../schemas/metadata';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

export function transferRoutes(router: Router, { family, services }: RouteContext): void {
  const body = transferBuildBody(family);
  postJson(router, '/x-transfer', body, ({ extraOptions, ...request }) =>
    services.transfers.build(request, { metadataHash: (extraOptions as { metadataHash?: boolean }).metadataHash === true }),
  );
  postJson(router, '/x-transfer-batch', batchBody(family), ({ transfers, options: { mode, metadataHash, ...shared } }) =>
    services.transfers.buildBatch(transfers, mode, shared, { metadataHash }),
  );
}
