import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('configuration from the environment', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 3001,
      HOST: '0.0.0.0',
      BODY_LIMIT: '100kb',
      CONNECT_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      IDLE_TIMEOUT_MS: 300_000,
      MAX_CHAINS: 32,
      ALLOW_PRIVATE_OVERRIDES: false,
    });
  });

  it('parses given values', () => {
    expect(loadConfig({ PORT: '8080', ALLOW_PRIVATE_OVERRIDES: 'true', BODY_LIMIT: '1mb' })).toMatchObject({ PORT: 8080, ALLOW_PRIVATE_OVERRIDES: true, BODY_LIMIT: '1mb' });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['CONNECT_TIMEOUT_MS', '-5'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT', 'huge'],
    ['ALLOW_PRIVATE_OVERRIDES', 'yes'],
  ])('a bad %s stops the start with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });
});
