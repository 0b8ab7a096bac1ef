import type { Router } from 'express';
import type { z } from 'zod';
import { parseInput } from '../schemas/parse';
import { sendJson } from './json';

/** The shape of every POST operation: parse the body with its schema, run the service, send JSON. */
export function postJson<S extends z.ZodTypeAny>(router: Router, path: string, schema: S, run: (body: z.output<S>) => Promise<unknown>): void {
  router.post(path, async (req, res) => {
    sendJson(res, await run(parseInput(schema, req.body, 'body')));
  });
}
