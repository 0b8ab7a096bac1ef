import type { Router } from 'express';
import { evmTransferBody } from '../../schemas/evm';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

export function evmRoutes(router: Router, { family, services }: RouteContext): void {
  postJson(router, '/evm-x-transfer', evmTransferBody(family), (request) => services.evmTransfers.build(request));
}
