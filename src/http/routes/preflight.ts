import type { Request, Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { preflightSchemas } from '../../schemas/preflight';
import { sendJson } from '../respond';
import type { RouteContext } from '../context';

/** Pre-flight queries: parse the family's body into the neutral request, ask the service, send JSON. */
export function preflightRoutes(router: Router, { family, services }: RouteContext): void {
  const s = preflightSchemas(family);
  const body = <K extends keyof typeof s>(key: K, req: Request) => parseInput(s[key], req.body, 'body');

  router.post('/dry-run', async (req, res) => {
    sendJson(res, await services.preflight.dryRun(body('dryRun', req).request));
  });
  router.post('/dry-run-preview', async (req, res) => {
    const { request, extraOptions } = body('dryRunPreview', req);
    sendJson(res, await services.preflight.dryRunPreview(request, extraOptions.mintFeeAssets === true));
  });
  router.post('/xcm-fee', async (req, res) => {
    const { request } = body('xcmFee', req);
    sendJson(res, await services.preflight.getXcmFee(request, request.disableFallback ?? false));
  });
  router.post('/origin-xcm-fee', async (req, res) => {
    const { request } = body('originXcmFee', req);
    sendJson(res, await services.preflight.getOriginXcmFee(request, request.disableFallback ?? false));
  });
  router.post('/transfer-info', async (req, res) => {
    sendJson(res, await services.preflight.getTransferInfo(body('transferInfo', req).request));
  });
  router.post('/transferable-amount', async (req, res) => {
    sendJson(res, await services.preflight.getTransferableAmount(body('transferableAmount', req).request));
  });
  router.post('/min-transferable-amount', async (req, res) => {
    sendJson(res, await services.preflight.getMinTransferableAmount(body('minTransferableAmount', req).request));
  });
  router.post('/receivable-amount', async (req, res) => {
    sendJson(res, await services.preflight.getReceivableAmount(body('receivableAmount', req).request));
  });
  router.post('/verify-ed-on-destination', async (req, res) => {
    sendJson(res, await services.preflight.verifyEdOnDestination(body('verifyEdOnDestination', req).request));
  });
  router.post('/best-amount-out', async (req, res) => {
    sendJson(res, await services.preflight.bestAmountOut(body('bestAmountOut', req).request));
  });
  router.get('/x-transfer/eth-bridge-status', async (_req, res) => {
    sendJson(res, await services.preflight.bridgeStatus());
  });
}
