import type { Router } from 'express';
import { explainBody } from '../../schemas/explain';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

/** Explains call data (or an EVM transaction) before it is signed. */
export function explainRoutes(router: Router, { family, services }: RouteContext): void {
  postJson(router, '/explain', explainBody(family), (request) => services.explain.explain(request));
}
