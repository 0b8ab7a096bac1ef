import type { Router } from 'express';
import { ApiError } from '../../errors';
import { parseInput } from '../../schemas/parse';
import { statusBody } from '../../schemas/status';
import type { RouteContext } from '../context';
import { errorBody } from '../errors';
import { openEventStream } from '../event-stream';
import { sendJson } from '../json';

/**
 * `POST /x-transfer/status`: where a signed transfer is now. JSON by default; with
 * `Accept: text/event-stream` a stream of `leg` events, then `status` (or `error`). Not to be
 * confused with `GET /status` (routes/status.ts), the service's own state.
 */
export function statusTrackingRoutes(router: Router, { family, services, logger }: RouteContext): void {
  const schema = statusBody(family);
  router.post('/x-transfer/status', async (req, res) => {
    const request = parseInput(schema, req.body, 'body');
    if (req.accepts(['application/json', 'text/event-stream']) !== 'text/event-stream') {
      sendJson(res, await services.status.status(request));
      return;
    }
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const stream = await services.status.stream(request, gone.signal).catch((error: unknown) => {
      // Nobody is left to answer.
      if (gone.signal.aborted) return undefined;
      throw error;
    });
    if (!stream) return;
    const events = openEventStream(res);
    try {
      const answer = await stream.run((leg) => events.send('leg', leg));
      if (answer) events.send('status', answer);
    } catch (error) {
      if (!(error instanceof ApiError)) logger.error({ reqId: req.id, err: error }, 'status stream failed');
      const failure = error instanceof ApiError ? error : new ApiError(500, 'InternalError', `Internal error; quote request id ${req.id} when reporting it`);
      events.send('error', errorBody(req, failure));
    } finally {
      events.end();
    }
  });
}
