import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestFigures } from '../../src/ops/request-figures';

const BOUNDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const NAMES = { requests: 'x_http_requests_total', duration: 'x_http_request_duration_seconds' };
const HELP = {
  requests: 'HTTP requests answered, by route template, method and status',
  duration: 'Time to answer an HTTP request, by route template, method and status',
};

describe('RequestFigures', () => {
  it('scrapes as the prom-client counter and histogram fed the same answers', async () => {
    const ours = new Registry();
    const figures = new RequestFigures(ours, NAMES, BOUNDS);
    const theirs = new Registry();
    const labelNames = ['route', 'method', 'status'] as const;
    const counter = new Counter({ name: NAMES.requests, help: HELP.requests, labelNames, registers: [theirs] });
    const histogram = new Histogram({ name: NAMES.duration, help: HELP.duration, labelNames, buckets: BOUNDS, registers: [theirs] });

    // Every bucket, a bound itself, beyond the last bound, and three series.
    const answers: [string, string, number, number][] = [
      ...[0, 0.001, 0.003, 0.02, 0.3, 0.9, 4, 12, 30, 31].map((s): [string, string, number, number] => ['/v2/chains', 'GET', 200, s]),
      ['/v2/chains', 'GET', 304, 0.0002],
      ['/v5/x-transfer', 'POST', 504, 45],
    ];
    for (const [route, method, status, seconds] of answers) {
      figures.record(route, method, status, seconds);
      counter.inc({ route, method, status: String(status) });
      histogram.observe({ route, method, status: String(status) }, seconds);
    }

    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('x_http_request_duration_seconds_bucket{le="+Inf",route="/v2/chains",method="GET",status="200"} 10');
  });
});
