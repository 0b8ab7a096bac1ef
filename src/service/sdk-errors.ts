import { ApiError } from '../errors';

interface Mapping {
  status: number;
  kind: string;
}

/**
 * The SDK's error classes (sdk-pjs 11.14.8) and what a caller sees for each. Several 11.x
 * classes set `name` without the `Error` suffix, so both spellings are listed. Kinds the
 * contract removed (ChainNotSupported, IncompatibleChains, InvalidParameter) are reported under
 * the kinds that replaced them.
 */
const SDK_ERRORS: Record<string, Mapping> = {
  InvalidCurrencyError: { status: 400, kind: 'InvalidCurrencyError' },
  DuplicateAssetError: { status: 400, kind: 'DuplicateAssetError' },
  DuplicateAsset: { status: 400, kind: 'DuplicateAssetError' },
  DuplicateAssetIdError: { status: 400, kind: 'DuplicateAssetIdError' },
  DuplicateAssetId: { status: 400, kind: 'DuplicateAssetIdError' },
  InvalidAddressError: { status: 400, kind: 'InvalidAddressError' },
  IncompatibleChainsError: { status: 400, kind: 'UnsupportedOperationError' },
  IncompatibleChains: { status: 400, kind: 'UnsupportedOperationError' },
  ChainNotSupportedError: { status: 400, kind: 'UnsupportedOperationError' },
  ScenarioNotSupportedError: { status: 400, kind: 'UnsupportedOperationError' },
  ScenarioNotSupported: { status: 400, kind: 'UnsupportedOperationError' },
  NoXCMSupportImplementedError: { status: 400, kind: 'UnsupportedOperationError' },
  NoXCMSupportImplemented: { status: 400, kind: 'UnsupportedOperationError' },
  TransferToAhNotSupported: { status: 400, kind: 'UnsupportedOperationError' },
  InvalidParameterError: { status: 400, kind: 'ValidationError' },
  InvalidParameter: { status: 400, kind: 'ValidationError' },
  MissingChainApiError: { status: 400, kind: 'MissingChainApiError' },
  AmountTooLowError: { status: 400, kind: 'AmountTooLowError' },
  DryRunFailedError: { status: 400, kind: 'DryRunFailedError' },
  UnableToComputeError: { status: 400, kind: 'UnableToComputeError' },
  PolkadotXcmError: { status: 400, kind: 'ValidationError' },
  XTokensError: { status: 400, kind: 'ValidationError' },
  PolkadotXcmExecutionError: { status: 400, kind: 'ValidationError' },
  BridgeHaltedError: { status: 503, kind: 'FeatureTemporarilyDisabledError' },
  BridgeHalted: { status: 503, kind: 'FeatureTemporarilyDisabledError' },
};

/** sdk-pjs throws a plain `Error` from @polkadot/util-crypto for a malformed SS58 address. */
const ADDRESS_DECODE = /^Decoding .*: |Invalid (decoded )?address|checksum|Invalid SS58|base58/i;

/** Turns anything the SDK throws into an ApiError, or returns it unchanged when it is a bug of ours. */
export function fromSdkError(error: unknown): unknown {
  if (error instanceof ApiError || !(error instanceof Error)) return error;
  const mapping = SDK_ERRORS[error.constructor.name] ?? SDK_ERRORS[error.name];
  if (mapping) return new ApiError(mapping.status, mapping.kind, error.message);
  if (error.constructor === Error && ADDRESS_DECODE.test(error.message)) {
    return new ApiError(400, 'InvalidAddressError', `Invalid address: ${error.message}`);
  }
  return error;
}

/** Runs a synchronous SDK call, translating its failures. */
export function sdkCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw fromSdkError(error);
  }
}
