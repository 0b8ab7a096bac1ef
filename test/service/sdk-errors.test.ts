import { describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/chains/address-guard';
import { ApiError } from '../../src/errors';
import { sdk } from '../../src/sdk';
import { fromChainFailure, fromSdkError, type ChainUsed } from '../../src/service/sdk-calls/sdk-errors';

describe('fromSdkError', () => {
  it("the SDK's BridgeHaltedError is a 503 FeatureTemporarilyDisabledError with the SDK's message", () => {
    const halted = new sdk.BridgeHaltedError();
    const error = fromSdkError(halted);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, kind: 'FeatureTemporarilyDisabledError', message: halted.message });
  });

  it("an Ethereum JSON-RPC endpoint the SDK dials through viem that does not answer is a 503 naming it (the path, which may carry a key, left out)", () => {
    const url = 'https://rpc.api.moonbeam.network/secret-key';
    const failure = new Error('HTTP request failed.', { cause: Object.assign(new Error('HTTP request failed.'), { name: 'HttpRequestError', url }) });
    expect(fromSdkError(failure)).toMatchObject({ status: 503, kind: 'ProviderUnavailableError', message: expect.stringContaining('Chain Moonbeam is unreachable') });
    expect((fromSdkError(failure) as ApiError).message).toContain('https://rpc.api.moonbeam.network');
    expect((fromSdkError(failure) as ApiError).message).not.toContain('secret-key');
  });

  it('a plain bug of ours passes through unchanged (it becomes a 500)', () => {
    const bug = new TypeError('x is undefined');
    expect(fromSdkError(bug)).toBe(bug);
  });
});

describe('connection-state errors are the chain\'s doing, never a 500', () => {
  const used = (lastFailure?: string): ChainUsed[] => [
    { chain: 'Hydration', endpoints: ['ws://127.0.0.1:1/'], context: { guard: new AddressGuard(true), maxFrameBytes: 1024 } },
    { chain: 'Polkadot', endpoints: ['ws://127.0.0.1:2/'], context: { guard: new AddressGuard(true), maxFrameBytes: 1024, lastFailure } },
  ];
  const notConnected = () => new Error('WebSocket is not connected\nFailed WS Request: {"method":"state_call","params":[]}');

  it('a call after a bad frame failed the connection: 502 naming the chain whose socket failed', () => {
    const error = fromChainFailure(notConnected(), used('malformed frame: not JSON'));
    expect(error).toMatchObject({ status: 502, kind: 'ChainResponseError', message: 'Chain Polkadot sent a frame this service cannot use (malformed frame: not JSON)' });
  });

  it('a call after the node closed the socket: 503 naming the chain and the close', () => {
    const error = fromChainFailure(notConnected(), used('closed with code 1006'));
    expect(error).toMatchObject({ status: 503, kind: 'ProviderUnavailableError' });
    expect((error as ApiError).message).toMatch(/^Chain Polkadot is unreachable: the connection was lost \(closed with code 1006\)/);
  });

  it('one that escaped without its chains (fromSdkError, the HTTP layer\'s last mapping): 503 or 502, not passed through', () => {
    expect(fromSdkError(notConnected())).toMatchObject({ status: 503, kind: 'ProviderUnavailableError' });
    expect(fromSdkError(new Error('disconnected from ws://127.0.0.1:2/: 1007:: malformed frame: null'))).toMatchObject({ status: 502, kind: 'ChainResponseError' });
    expect(fromSdkError(new Error('No response received from RPC endpoint in 60s'))).toMatchObject({ status: 504, kind: 'DeadlineExceededError' });
  });
});
