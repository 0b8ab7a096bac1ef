// Watches: `POST /x-transfer/watch` follows a signed transfer on the client's behalf and calls its
// webhook at each change; `GET` and `DELETE /x-transfer/watch/:id` show and end it, for the client
// that made it only (its API key, else its address).
import type { Request, Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { watchBody, watchParams } from '../../schemas/watch';
import type { RouteContext } from '../context';
import { sendJson } from '../json';
import { clientKey } from '../rate-limit';

/** Whose watches a request may see: the rate limits' client key. */
const owner = (req: Request): string => clientKey(req.apiKey, req.ip ?? 'unknown');

export function watchRoutes(router: Router, { family, services }: RouteContext): void {
  const schema = watchBody(family);

  router.post('/x-transfer/watch', async (req, res) => {
    const request = parseInput(schema, req.body, 'body');
    sendJson(res, await services.watches.create(request, owner(req)), 201);
  });

  router.get('/x-transfer/watch/:id', async (req, res) => {
    const { id } = parseInput(watchParams, req.params, 'params');
    sendJson(res, await services.watches.get(id, owner(req)));
  });

  router.delete('/x-transfer/watch/:id', async (req, res) => {
    const { id } = parseInput(watchParams, req.params, 'params');
    await services.watches.remove(id, owner(req));
    res.status(204).end();
  });
}
