import { expect } from 'vitest';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config';
import { createApp } from '../../src/http/app';
import { createServices, type Services } from '../../src/service';

export const FAMILIES = ['v5', 'v2'] as const;

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Rate limits and the decode budget are off unless a test turns them on (test/ops, test/http/decode-budget.test.ts
  // cover them): suites send bursts from one address, over many test chains.
  // A client's connections idle as the registry's (IDLE_TIMEOUT_MS) unless a test sets CLIENT_IDLE_TIMEOUT_MS
  // (SHIPPED_CLIENT_IDLE): suites warm a connection to their test nodes and count on it seconds later.
  return loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'true', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0', METADATA_DECODES_PER_CLIENT_PER_MINUTE: '0', CLIENT_IDLE_TIMEOUT_MS: '3600000', ...overrides });
}

/** CLIENT_IDLE_TIMEOUT_MS as shipped, for the tests of what a client leaves behind at its nodes. */
export const SHIPPED_CLIENT_IDLE = { CLIENT_IDLE_TIMEOUT_MS: String(loadConfig({}).CLIENT_IDLE_TIMEOUT_MS) };

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

/** A family's names of the recipient's and the sender's fields: `/v5` address and senderAddress, `/v2` recipient and sender. */
export const accountFields = (family: string): { recipient: string; sender: string } =>
  family === 'v5' ? { recipient: 'address', sender: 'senderAddress' } : { recipient: 'recipient', sender: 'sender' };

/** A transfer's body in a family's field names: from, to, currency, the recipient and the sender. */
export const transferBody = (family: string, fields: { from: string; to: string; currency: unknown; recipient: string; sender: string }): Record<string, unknown> => {
  const names = accountFields(family);
  return { from: fields.from, to: fields.to, currency: fields.currency, [names.recipient]: fields.recipient, [names.sender]: fields.sender };
};

/** The teleport Polkadot -> AssetHubPolkadot DOT priced by `POST /{family}/xcm-fee`, in that family's field names. */
export const teleportFeeBody = (family: string, apiOverrides: Record<string, string>, address: string, sender: string): object => ({
  from: 'Polkadot',
  to: 'AssetHubPolkadot',
  currency: { symbol: 'DOT', amount: '10000000000' },
  [family === 'v5' ? 'address' : 'recipient']: address,
  [family === 'v5' ? 'senderAddress' : 'sender']: sender,
  options: { development: true, apiOverrides, abstractDecimals: false },
});
