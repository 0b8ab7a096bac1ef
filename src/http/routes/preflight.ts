import type { Router } from 'express';
import type { z } from 'zod';
import { preflightSchemas } from '../../schemas/preflight';
import type { PreflightService } from '../../service/preflight';
import { postJson } from '../post-json';
import { sendJson } from '../respond';
import type { RouteContext } from '../context';

type Schemas = ReturnType<typeof preflightSchemas>;
type Ask<K extends keyof Schemas> = (preflight: PreflightService, body: z.output<Schemas[K]>) => Promise<unknown>;

/** Body schema -> path and the service call it feeds; every pre-flight POST is handled the same way. */
const ENDPOINTS: { [K in keyof Schemas]: [path: string, ask: Ask<K>] } = {
  dryRun: ['/dry-run', (p, { request }) => p.dryRun(request)],
  dryRunPreview: ['/dry-run-preview', (p, { request, extraOptions }) => p.dryRunPreview(request, extraOptions.mintFeeAssets === true)],
  xcmFee: ['/xcm-fee', (p, { request }) => p.getXcmFee(request, request.disableFallback ?? false)],
  originXcmFee: ['/origin-xcm-fee', (p, { request }) => p.getOriginXcmFee(request, request.disableFallback ?? false)],
  transferInfo: ['/transfer-info', (p, { request }) => p.getTransferInfo(request)],
  transferableAmount: ['/transferable-amount', (p, { request }) => p.getTransferableAmount(request)],
  minTransferableAmount: ['/min-transferable-amount', (p, { request }) => p.getMinTransferableAmount(request)],
  receivableAmount: ['/receivable-amount', (p, { request }) => p.getReceivableAmount(request)],
  verifyEdOnDestination: ['/verify-ed-on-destination', (p, { request }) => p.verifyEdOnDestination(request)],
  bestAmountOut: ['/best-amount-out', (p, { request }) => p.bestAmountOut(request)],
};

/** Pre-flight queries: parse the family's body into the neutral request, ask the service, send JSON. */
export function preflightRoutes(router: Router, { family, services }: RouteContext): void {
  const s = preflightSchemas(family);
  const mount = <K extends keyof Schemas>(key: K) => {
    const [path, ask] = ENDPOINTS[key];
    postJson(router, path, s[key], (body) => ask(services.preflight, body));
  };
  for (const key of Object.keys(ENDPOINTS) as (keyof Schemas)[]) mount(key);

  router.get('/x-transfer/eth-bridge-status', async (_req, res) => {
    sendJson(res, await services.preflight.bridgeStatus());
  });
}
