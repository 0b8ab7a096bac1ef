import type { Logger } from 'pino';
import type { Config } from '../config';
import type { ResponseCache } from './respond';
import type { Services } from '../service';

/** The two path families serve the same operations with different field names and defaults. */
export type Family = 'v5' | 'v2';
export const FAMILIES: readonly Family[] = ['v5', 'v2'];

export interface RouteContext {
  family: Family;
  services: Services;
  cache: ResponseCache;
  config: Config;
  logger: Logger;
}
