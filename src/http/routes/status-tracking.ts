import type { Request, Response, Router } from 'express';
import { ApiError } from '../../errors';
import { parseInput } from '../../schemas/parse';
import { statusBody, type StatusRequest } from '../../schemas/status';
import type { RouteContext } from '../context';
import { errorBody } from '../errors';
import { openEventStream } from '../event-stream';
import { sendJson } from '../json';

/**
 * `POST /x-transfer/status`: where a signed transfer is now, as JSON. `POST /x-transfer/status/stream`
 * answers the same body with a stream of `leg` events, then `status` (or `error`); `Accept:
 * text/event-stream` on the first path is the same stream, as it was before the second existed.
 * Not to be confused with `GET /status` (routes/status.ts), the service's own state.
 */
export function statusTrackingRoutes(router: Router, { family, services, logger }: RouteContext): void {
  const schema = statusBody(family);

  const stream = async (req: Request, res: Response, request: StatusRequest): Promise<void> => {
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const following = await services.status.stream(request, gone.signal).catch((error: unknown) => {
      // Nobody is left to answer.
      if (gone.signal.aborted) return undefined;
      throw error;
    });
    if (!following) return;
    const events = openEventStream(res);
    try {
      const answer = await following.run((leg) => events.send('leg', leg));
      if (answer) events.send('status', answer);
    } catch (error) {
      if (!(error instanceof ApiError)) logger.error({ reqId: req.id, err: error }, 'status stream failed');
      const failure = error instanceof ApiError ? error : new ApiError(500, 'InternalError', `Internal error; quote request id ${req.id} when reporting it`);
      events.send('error', errorBody(req, failure));
    } finally {
      events.end();
    }
  };

  router.post('/x-transfer/status', async (req, res) => {
    const request = parseInput(schema, req.body, 'body');
    if (req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream') return stream(req, res, request);
    sendJson(res, await services.status.status(request));
  });
  router.post('/x-transfer/status/stream', (req, res) => stream(req, res, parseInput(schema, req.body, 'body')));
}
