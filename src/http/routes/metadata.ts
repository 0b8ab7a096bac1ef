import type { Router } from 'express';
import { metadataHashBody, metadataProofBody } from '../../schemas/metadata';
import { postJson } from '../post-json';
import type { RouteContext } from '../context';

/** RFC-0078 metadata hash and proofs, for signers that check them (hardware wallets). */
export function metadataRoutes(router: Router, { services }: RouteContext): void {
  postJson(router, '/metadata-hash', metadataHashBody, (request) => services.metadata.hash(request));
  postJson(router, '/metadata-proof', metadataProofBody, (request) => services.metadata.proof(request));
}
