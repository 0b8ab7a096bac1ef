import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler, notFoundHandler } from '../../src/http/errors';
import { requestLog } from '../../src/http/request-log';
import { expectErrorBody } from '../helpers/app';

/** An app wired like ours, with one route that has a bug, logging into memory. */
function buggyApp() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const app = express();
  app.use(requestLog(logger));
  app.get('/boom', () => {
    throw new TypeError("Cannot read properties of undefined (reading 'secret')");
  });
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, lines };
}

describe('a bug of ours', () => {
  it('is a 500 whose body carries the request id and no stack, logged with that id', async () => {
    const { app, lines } = buggyApp();
    const res = await request(app).get('/boom').set('X-Request-Id', 'req-42').expect(500);
    expectErrorBody(res.body, 500, 'InternalError');
    expect(res.body.requestId).toBe('req-42');
    expect(res.body.message).toContain('req-42');
    expect(JSON.stringify(res.body)).not.toMatch(/TypeError|secret|at .*\.ts/);
    await new Promise((r) => setImmediate(r));
    const logged = lines.find((l) => l.msg === 'unhandled error');
    expect(logged).toMatchObject({ reqId: 'req-42', err: { type: 'TypeError' } });
    expect(lines.find((l) => l.msg === 'request failed')).toMatchObject({ reqId: 'req-42', status: 500, path: '/boom' });
  });

  it('a request logs one line with id, method, path, status and duration, and no body', async () => {
    const { app, lines } = buggyApp();
    await request(app).post('/nowhere').send({ address: 'secret-ish' }).expect(404);
    const requestLines = lines.filter((l) => l.msg === 'request');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ method: 'POST', path: '/nowhere', status: 404 });
    expect(typeof requestLines[0].ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-ish');
  });
});
