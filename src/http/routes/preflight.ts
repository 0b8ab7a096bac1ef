import type { Router } from 'express';
import type { z } from 'zod';
import { preflightSchemas, type PreflightBody } from '../../schemas/preflight';
import type { RouterRequest } from '../../schemas/router';
import type { Services } from '../../service';
import { SWAP_TRANSFER_PATHS } from '../../service/pre-dial';
import { postJson } from '../post-json';
import { sendJson } from '../json';
import type { RouteContext } from '../context';

type Schemas = ReturnType<typeof preflightSchemas>;
type Ask<K extends keyof Schemas> = (services: Services, body: z.output<Schemas[K]>) => Promise<unknown>;

/** best-amount-out requires swapOptions, so its body always carries the router request. */
const swapOf = (body: PreflightBody): RouterRequest => body.swap as RouterRequest;

/**
 * Body schema -> path and the service call it feeds; every pre-flight POST is handled the same way.
 * With swapOptions the router prices the swap, in the same pre-flight shapes.
 */
const ENDPOINTS: { [K in keyof Schemas]: [path: string, ask: Ask<K>] } = {
  dryRun: ['/dry-run', (s, { request, swap }) => (swap ? s.router.dryRun(swap, SWAP_TRANSFER_PATHS) : s.preflight.dryRun(request))],
  dryRunPreview: ['/dry-run-preview', (s, { request, extraOptions }) => s.preflight.dryRunPreview(request, extraOptions.mintFeeAssets === true)],
  xcmFee: ['/xcm-fee', (s, { request, swap }) => (swap ? s.router.xcmFees(swap, SWAP_TRANSFER_PATHS) : s.preflight.getXcmFee(request, request.disableFallback ?? false))],
  originXcmFee: ['/origin-xcm-fee', (s, { request }) => s.preflight.getOriginXcmFee(request, request.disableFallback ?? false)],
  transferInfo: ['/transfer-info', (s, { request }) => s.preflight.getTransferInfo(request)],
  transferableAmount: ['/transferable-amount', (s, { request, swap }) => (swap ? s.router.transferableAmount(swap, SWAP_TRANSFER_PATHS) : s.preflight.getTransferableAmount(request))],
  minTransferableAmount: ['/min-transferable-amount', (s, { request, swap }) => (swap ? s.router.minTransferableAmount(swap, SWAP_TRANSFER_PATHS) : s.preflight.getMinTransferableAmount(request))],
  receivableAmount: ['/receivable-amount', (s, { request }) => s.preflight.getReceivableAmount(request)],
  verifyEdOnDestination: ['/verify-ed-on-destination', (s, { request }) => s.preflight.verifyEdOnDestination(request)],
  bestAmountOut: ['/best-amount-out', (s, body) => s.router.bestAmountOut(swapOf(body), SWAP_TRANSFER_PATHS)],
};

/** Pre-flight queries: parse the family's body into the neutral request, ask the service, send JSON. */
export function preflightRoutes(router: Router, { family, services }: RouteContext): void {
  const s = preflightSchemas(family);
  const mount = <K extends keyof Schemas>(key: K) => {
    const [path, ask] = ENDPOINTS[key];
    postJson(router, path, s[key], (body) => ask(services, body));
  };
  for (const key of Object.keys(ENDPOINTS) as (keyof Schemas)[]) mount(key);

  router.get('/x-transfer/eth-bridge-status', async (_req, res) => {
    sendJson(res, await services.preflight.bridgeStatus());
  });
}
