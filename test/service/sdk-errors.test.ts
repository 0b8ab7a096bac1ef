import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import { sdk } from '../../src/sdk';
import { fromSdkError } from '../../src/service/sdk-calls/sdk-errors';

describe('fromSdkError', () => {
  it("the SDK's BridgeHaltedError is a 503 FeatureTemporarilyDisabledError with the SDK's message", () => {
    const halted = new sdk.BridgeHaltedError();
    const error = fromSdkError(halted);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, kind: 'FeatureTemporarilyDisabledError', message: halted.message });
  });

  it('a plain bug of ours passes through unchanged (it becomes a 500)', () => {
    const bug = new TypeError('x is undefined');
    expect(fromSdkError(bug)).toBe(bug);
  });
});
