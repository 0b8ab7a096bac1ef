import { expect } from 'vitest';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config';
import { createApp } from '../../src/http/app';
import { createServices, type Services } from '../../src/service';

export const FAMILIES = ['v5', 'v2'] as const;

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Rate limits are off unless a test turns them on (test/ops covers them): suites send bursts from one address.
  return loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'true', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0', ...overrides });
}

/** The server's request listener (the cached lane, then the Express app) with the real services, logging off. */
export function testApp(overrides: Record<string, string> = {}): { app: ReturnType<typeof createApp>; services: Services; config: Config } {
  const config = testConfig(overrides);
  const logger = pino({ level: config.LOG_LEVEL });
  const services = createServices(config, logger);
  return { app: createApp({ config, logger, services }), services, config };
}

/** Every error answer has this body: status, reason, kind, message and the request id. */
export function expectErrorBody(body: unknown, status: number, kind?: string): void {
  expect(body).toMatchObject({
    statusCode: status,
    error: expect.any(String),
    kind: kind ?? expect.any(String),
    message: expect.any(String),
    requestId: expect.any(String),
  });
}
