// `npm run openapi`: writes the request schemas and parameters of openapi.yaml from the zod
// schemas listed in src/schemas/openapi.ts. test/http/openapi-generated.test.ts fails when the
// committed document differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';
import { PARAMETER_SETS, REQUEST_BODIES } from '../src/schemas/openapi';
import { requestComponents } from './openapi/components';
import { withRequestComponents } from './openapi/document';

/** openapi.yaml as the schemas write it. */
export function generatedDocument(current: string): string {
  return withRequestComponents(current, requestComponents(REQUEST_BODIES, PARAMETER_SETS));
}

export const OPENAPI_PATH = join(projectRoot(), 'openapi.yaml');

if (require.main === module) {
  const current = readFileSync(OPENAPI_PATH, 'utf8');
  const next = generatedDocument(current);
  if (next === current) console.log('openapi.yaml is up to date');
  else {
    writeFileSync(OPENAPI_PATH, next);
    console.log('openapi.yaml: request schemas and parameters written from src/schemas');
  }
}
