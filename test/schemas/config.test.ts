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

  it('following transfers: lookback 100 blocks (at most 600), 600 blocks per request, 180 s per stream, 200 streams', () => {
    expect(loadConfig({})).toMatchObject({ TRACK_LOOKBACK_BLOCKS: 100, TRACK_MAX_BLOCKS: 600, TRACK_TIMEOUT_MS: 180_000, TRACK_MAX_STREAMS: 200 });
    expect(loadConfig({ TRACK_LOOKBACK_BLOCKS: '600' }).TRACK_LOOKBACK_BLOCKS).toBe(600);
    expect(() => loadConfig({ TRACK_LOOKBACK_BLOCKS: '601' })).toThrow(/^Invalid configuration: TRACK_LOOKBACK_BLOCKS: /);
    expect(() => loadConfig({ TRACK_MAX_STREAMS: '0' })).toThrow(/^Invalid configuration: TRACK_MAX_STREAMS: /);
  });

  it('CACHE_MAX_BYTES is a size (bytes, kb, mb or gb), 64 MB by default', () => {
    expect(loadConfig({}).CACHE_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(loadConfig({ CACHE_MAX_BYTES: '1000' }).CACHE_MAX_BYTES).toBe(1000);
    expect(loadConfig({ CACHE_MAX_BYTES: '512KB' }).CACHE_MAX_BYTES).toBe(512 * 1024);
    expect(loadConfig({ CACHE_MAX_BYTES: '1gb' }).CACHE_MAX_BYTES).toBe(1024 ** 3);
    expect(() => loadConfig({ CACHE_MAX_BYTES: 'lots' })).toThrow(/^Invalid configuration: CACHE_MAX_BYTES: /);
  });
});
