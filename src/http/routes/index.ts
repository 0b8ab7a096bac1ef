import type { Router } from 'express';
import type { RouteContext } from '../context';
import { addressRoutes } from './address';
import { assetRoutes } from './assets';
import { balanceRoutes } from './balance';
import { chainRoutes } from './chains';
import { evmRoutes } from './evm';
import { explainRoutes } from './explain';
import { metadataRoutes } from './metadata';
import { palletRoutes } from './pallets';
import { preflightRoutes } from './preflight';
import { removedRoutes } from './removed';
import { routerRoutes } from './router';
import { snowbridgeRoutes } from './snowbridge';
import { statusTrackingRoutes } from './status-tracking';
import { swapRoutes } from './swap';
import { transferRoutes } from './transfer';
import { watchRoutes } from './watch';

/** Route modules mounted under each family; the removed endpoints come first so they win. */
export const FAMILY_ROUTES: ((router: Router, ctx: RouteContext) => void)[] = [
  removedRoutes,
  assetRoutes,
  chainRoutes,
  palletRoutes,
  addressRoutes,
  transferRoutes,
  preflightRoutes,
  balanceRoutes,
  routerRoutes,
  swapRoutes,
  evmRoutes,
  snowbridgeRoutes,
  explainRoutes,
  statusTrackingRoutes,
  watchRoutes,
  metadataRoutes,
];
