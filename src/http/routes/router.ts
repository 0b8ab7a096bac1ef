import type { Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { pairsBody, routerBody } from '../../schemas/router';
import { swapTransferBody } from '../../schemas/swap-transfer';
import { SWAP_TRANSFER_PATHS } from '../../service/offline-checks';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

/** Cross-chain swaps (xcm-router): parse the body into the neutral request, ask the service, send JSON. */
export function routerRoutes(router: Router, { family, services, cache }: RouteContext): void {
  const build = routerBody(family, 'build');
  // The contract names the builder `/router-hash`; its examples post to `/router`.
  // Registered one path at a time so that the app's route table (and the OpenAPI parity check) lists both.
  for (const path of ['/router', '/router-hash']) postJson(router, path, build, (r) => services.router.build(r));
  postJson(router, '/x-transfers', swapTransferBody(family), (r) => services.router.build(r, SWAP_TRANSFER_PATHS));
  postJson(router, '/router/dry-run', routerBody(family, 'dryRun'), (r) => services.router.dryRun(r));
  postJson(router, '/router/min-transferable-amount', routerBody(family, 'minTransferableAmount'), (r) => services.router.minTransferableAmount(r));
  postJson(router, '/router/transferable-amount', routerBody(family, 'transferableAmount'), (r) => services.router.transferableAmount(r));
  postJson(router, '/router/best-amount-out', routerBody(family, 'bestAmountOut'), (r) => services.router.bestAmountOut(r));
  postJson(router, '/router/xcm-fees', routerBody(family, 'xcmFees'), (r) => services.router.xcmFees(r));

  // Pairs come from the router's bundled data and never change while the process runs: cached bytes.
  router.post('/router/pairs', (req, res) => {
    const { exchange } = parseInput(pairsBody, req.body, 'body');
    const key = `router-pairs:${exchange ? exchange.join(',') : '*'}`;
    cache.send(req, res, key, () => services.router.pairs(exchange));
  });
}
