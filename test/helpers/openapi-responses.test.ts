import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { openApiViolation } from './openapi-responses';
import { testApp } from './app';

const JSON_TYPE = 'application/json; charset=utf-8';

describe('answers are checked against openapi.yaml', () => {
  it('accepts what the document says and names what it does not', () => {
    expect(openApiViolation('GET', '/v2/chains/Hydration/para-id', 200, JSON_TYPE, 2034)).toBeUndefined();
    expect(openApiViolation('GET', '/v2/chains/Hydration/para-id', 200, JSON_TYPE, '2034')).toMatch(/does not match openapi\.yaml/);
    expect(openApiViolation('GET', '/v2/chains/Hydration/para-id', 418, JSON_TYPE, {})).toMatch(/status 418 is not documented/);
    expect(openApiViolation('GET', '/health', 200, JSON_TYPE, { status: 'ok' })).toBeUndefined();
    const error = { statusCode: 400, error: 'Bad Request', kind: 'UnknownChainError', message: 'x', requestId: 'r' };
    expect(openApiViolation('POST', '/v5/dry-run', 400, JSON_TYPE, error)).toBeUndefined();
    const { kind: _kind, ...noKind } = error;
    expect(openApiViolation('POST', '/v5/dry-run', 400, JSON_TYPE, noKind)).toMatch(/kind/);
    // A route the document does not have must still answer with the JSON error body.
    expect(openApiViolation('GET', '/nowhere', 404, JSON_TYPE, { ...error, statusCode: 404 })).toBeUndefined();
    expect(openApiViolation('GET', '/nowhere', 200, JSON_TYPE, {})).toMatch(/does not document/);
    expect(openApiViolation('GET', '/v2/chains', 200, 'text/plain', 'Polkadot')).toMatch(/documented as JSON/);
    // A stream is documented on its own path; `Accept: text/event-stream` on the JSON path is answered as that path answers.
    expect(openApiViolation('POST', '/v5/x-transfer/status/stream', 200, 'text/event-stream; charset=utf-8', {})).toBeUndefined();
    expect(openApiViolation('POST', '/v5/x-transfer/status/stream', 200, JSON_TYPE, {})).toMatch(/documented as text\/event-stream, answered application\/json/);
    expect(openApiViolation('POST', '/v2/x-transfer/status', 200, 'text/event-stream; charset=utf-8', {})).toBeUndefined();
    expect(openApiViolation('POST', '/v5/x-transfer/status', 200, 'text/plain', 'delivered')).toMatch(/documented as JSON/);
    expect(openApiViolation('GET', '/v2/chains', 200, 'text/event-stream', {})).toMatch(/documented as JSON/);
  });

  it('holds a request body the service accepted to the request schema of the document', () => {
    const body = { from: 'Hydration', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ' };
    expect(openApiViolation('POST', '/v5/x-transfer', 200, JSON_TYPE, '0x00', true, body)).toBeUndefined();
    expect(openApiViolation('POST', '/v5/x-transfer', 200, JSON_TYPE, '0x00', true, JSON.stringify(body))).toBeUndefined();
    expect(openApiViolation('POST', '/v5/x-transfer', 200, JSON_TYPE, '0x00', true, { ...body, recipient: 'x' })).toMatch(/accepted a request body that openapi\.yaml's request schema refuses/);
    // A refused body is the test's own business: only accepted ones say something about the document.
    const error = { statusCode: 400, error: 'Bad Request', kind: 'ValidationError', message: 'x', requestId: 'r' };
    expect(openApiViolation('POST', '/v5/x-transfer', 400, JSON_TYPE, error, true, { ...body, recipient: 'x' })).toBeUndefined();
  });

  it('fails a supertest request whose answer contradicts the document', async () => {
    // An app that answers GET /v2/chains (documented: a list of chain names) with something else.
    const drifted = express().get('/v2/chains', (_req, res) => res.json({ not: 'a chain list' }));
    await expect(request(drifted).get('/v2/chains')).rejects.toThrow(/openapi\.yaml check: GET \/v2\/chains -> 200: the body does not match/);
    const { app, services } = testApp();
    try {
      expect((await request(app).get('/v2/chains/Hydration/para-id').expect(200)).body).toBe(2034);
    } finally {
      await services.close();
    }
  });
});
