import type { Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { pairsBody, routerBody, swapTransferBody } from '../../schemas/router';
import { sendJson } from '../respond';
import type { RouteContext } from '../context';

/** Cross-chain swaps (xcm-router): parse the body into the neutral request, ask the service, send JSON. */
export function routerRoutes(router: Router, { family, services, cache }: RouteContext): void {
  const bodies = {
    build: routerBody(family, 'build'),
    dryRun: routerBody(family, 'dryRun'),
    minTransferableAmount: routerBody(family, 'minTransferableAmount'),
    transferableAmount: routerBody(family, 'transferableAmount'),
    bestAmountOut: routerBody(family, 'bestAmountOut'),
    xcmFees: routerBody(family, 'xcmFees'),
    swapTransfer: swapTransferBody(family),
  };

  // The contract names the builder `/router-hash`; its examples post to `/router`.
  // Registered one path at a time so that the app's route table (and the OpenAPI parity check) lists both.
  for (const path of ['/router', '/router-hash']) {
    router.post(path, async (req, res) => {
      sendJson(res, await services.router.build(parseInput(bodies.build, req.body, 'body')));
    });
  }
  router.post('/x-transfers', async (req, res) => {
    sendJson(res, await services.router.build(parseInput(bodies.swapTransfer, req.body, 'body')));
  });
  router.post('/router/dry-run', async (req, res) => {
    sendJson(res, await services.router.dryRun(parseInput(bodies.dryRun, req.body, 'body')));
  });
  router.post('/router/min-transferable-amount', async (req, res) => {
    sendJson(res, await services.router.minTransferableAmount(parseInput(bodies.minTransferableAmount, req.body, 'body')));
  });
  router.post('/router/transferable-amount', async (req, res) => {
    sendJson(res, await services.router.transferableAmount(parseInput(bodies.transferableAmount, req.body, 'body')));
  });
  router.post('/router/best-amount-out', async (req, res) => {
    sendJson(res, await services.router.bestAmountOut(parseInput(bodies.bestAmountOut, req.body, 'body')));
  });
  router.post('/router/xcm-fees', async (req, res) => {
    sendJson(res, await services.router.xcmFees(parseInput(bodies.xcmFees, req.body, 'body')));
  });
  // Pairs come from the router's bundled data and never change while the process runs: cached bytes.
  router.post('/router/pairs', (req, res) => {
    const { exchange } = parseInput(pairsBody, req.body, 'body');
    const key = `router-pairs:${exchange ? exchange.join(',') : '*'}`;
    cache.send(req, res, key, () => services.router.pairs(exchange));
  });
}
