import type { Router } from 'express';
import { explainBody } from '../../schemas/explain';
import { xcmAnalyserBody } from '../../schemas/xcm-analyser';
import { locationPaths } from '../../service/explain';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

/** Explains call data (or an EVM transaction) before it is signed, and writes locations as paths. */
export function explainRoutes(router: Router, { family, services }: RouteContext): void {
  postJson(router, '/explain', explainBody(family), (request) => services.explain.explain(request));
  postJson(router, '/xcm-analyser', xcmAnalyserBody, async (request) => locationPaths(request));
}
