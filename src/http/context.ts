import type { Logger } from 'pino';
import type { ChainRoutes } from './chain-routes';
import type { Config } from '../config';
import type { ResponseCache } from './response-cache';
import type { Family } from '../schemas/family';
import type { Services } from '../service';

export interface RouteContext {
  family: Family;
  services: Services;
  cache: ResponseCache;
  config: Config;
  logger: Logger;
  /** Where a route with a chain in its path is declared (`chainRoutes.route`): the cached lane answers its unknown chains. */
  chainRoutes: ChainRoutes;
}
