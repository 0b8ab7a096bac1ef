// POST /{family}/x-transfer/status asked as the status tests ask it: of both families at once.
import request from 'supertest';
import { expect } from 'vitest';
import { FAMILIES, type testApp } from './app';

/** Asks both families the same question (`body` with `options`); they must answer alike. */
export async function statusInBothFamilies(app: ReturnType<typeof testApp>['app'], options: object, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answers = [];
  for (const family of FAMILIES) {
    const res = await request(app).post(`/${family}/x-transfer/status`).send({ options, ...body });
    expect(res.status, `${family}: ${JSON.stringify(res.body)}`).toBe(200);
    answers.push(res.body as Record<string, unknown>);
  }
  expect(answers[1]).toEqual(answers[0]);
  return answers[0]!;
}
