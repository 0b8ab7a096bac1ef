import { quote } from '../../chains/address-guard';
import { FRAME_TOO_BIG_CODE, isFrameFailure, MALFORMED_FRAME_CODE, type SocketContext } from '../../chains/chain-socket';
import { connectionStateOf } from '../../chains/connection-state';
import { normaliseEndpoint } from '../../chains/endpoint';
import { ApiError, badRequest, ChainResponseError, DeadlineExceededError, ProviderUnavailableError } from '../../errors';

interface Mapping {
  status: number;
  kind: string;
}

/**
 * The SDK's error classes (sdk-pjs SDK_VERSION) and what a caller sees for each. Several 11.x
 * classes set `name` without the `Error` suffix, so both spellings are listed. Kinds the
 * contract removed (ChainNotSupported, IncompatibleChains, InvalidParameter) are reported under
 * the kinds that replaced them.
 */
const SDK_ERRORS: Record<string, Mapping> = {
  InvalidCurrencyError: { status: 400, kind: 'InvalidCurrencyError' },
  DuplicateAssetError: { status: 400, kind: 'AmbiguousAssetError' },
  DuplicateAsset: { status: 400, kind: 'AmbiguousAssetError' },
  DuplicateAssetIdError: { status: 400, kind: 'AmbiguousAssetError' },
  DuplicateAssetId: { status: 400, kind: 'AmbiguousAssetError' },
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

/**
 * The SDK's duplicate-asset messages name its selector functions (ForeignAbstract(), Native()) and
 * print `undefined` for assets without an alias: its first sentence is kept, the rest said in words. The offline checks answer these cases with
 * candidates (service/offline-checks/asset-choice.ts); one that still reaches here is said in words.
 */
export function ambiguityInWords(message: string, how = 'its location, id or alias (GET /assets/<chain> lists them)'): string {
  const symbol = /for symbol (.+?)\. Please/.exec(message)?.[1];
  const id = /same ID: (.+?)\. Please/.exec(message)?.[1];
  const what = symbol !== undefined ? `The symbol ${symbol}` : id !== undefined ? `The id ${id}` : 'The currency';
  // The SDK's first sentence is kept: clients written against ParaSpell's messages match on it.
  const upstream = /^Multiple [^.]*/.exec(message)?.[0];
  return `${upstream ? `${upstream}. ` : ''}${what} names several assets: select the one you mean by ${how}`;
}

/** polkadot.js refusing the arguments the SDK built for a call: the `pallet`/`method` a caller chose does not take them. */
const ARGUMENTS_DO_NOT_FIT = /^Extrinsic (\w+\.\w+) expects (\d+) arguments, got (\d+)/;

/** The SDK's public Ethereum JSON-RPC endpoints, by the chain they serve (anything else is Ethereum's). */
const EVM_ENDPOINT_CHAINS: [RegExp, string][] = [
  [/moonbeam/i, 'Moonbeam'],
  [/moonriver/i, 'Moonriver'],
];

/**
 * An Ethereum JSON-RPC endpoint the SDK dials over HTTP through viem (its errors wrap an
 * HttpRequestError or TimeoutError carrying the URL) that failed to answer: a 503 naming it.
 */
function fromEvmEndpointFailure(error: Error): ApiError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const url = (e as { url?: unknown }).url;
    if ((e.name === 'HttpRequestError' || e.name === 'TimeoutError') && typeof url === 'string') {
      const chain = EVM_ENDPOINT_CHAINS.find(([host]) => host.test(url))?.[1] ?? 'Ethereum';
      return new ProviderUnavailableError(chain, [quote(redactEndpoint(url))], `its Ethereum JSON-RPC endpoint did not answer (${e.name})`);
    }
  }
  return undefined;
}

/** An endpoint as it may be shown: a URL's path and query can carry an API key. */
function redactEndpoint(url: string): string {
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return 'an endpoint that is not a URL';
  }
}

/** Turns anything the SDK throws into an ApiError, or returns it unchanged when it is a bug of ours. */
export function fromSdkError(error: unknown): unknown {
  if (error instanceof ApiError || !(error instanceof Error)) return error;
  const misfit = ARGUMENTS_DO_NOT_FIT.exec(error.message);
  if (misfit) {
    const message = `${misfit[1]} takes ${misfit[2]} arguments, and this transfer needs ${misfit[3]}: choose a method that takes them, or leave pallet and method out`;
    return badRequest('ValidationError', `method does not fit: ${message}`, [{ path: 'body.method', message }]);
  }
  const unreachable = fromEvmEndpointFailure(error);
  if (unreachable) return unreachable;
  const mapping = SDK_ERRORS[error.constructor.name] ?? SDK_ERRORS[error.name];
  if (mapping?.kind === 'AmbiguousAssetError') return new ApiError(mapping.status, mapping.kind, ambiguityInWords(error.message));
  if (mapping) return new ApiError(mapping.status, mapping.kind, error.message);
  // A connection-state error that reached here without the chains it came from: still the chain's doing.
  if (connectionStateOf(error)) return fromChainFailure(error, []);
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

/** A chain connection a request used: enough to name the chain a failure came from. */
export interface ChainUsed {
  readonly chain: string;
  readonly endpoints: readonly string[];
  readonly context: SocketContext;
}

/** A storage value or runtime answer that does not decode with the chain's own metadata. */
const UNDECODABLE = /^Unable to decode storage |^Unable to decode |Decoded input doesn't match input/;

const sameEndpoint = (url: string, endpoints: readonly string[]): boolean => {
  try {
    return endpoints.includes(normaliseEndpoint(url));
  } catch {
    return false;
  }
};

/** `Polkadot`, or `one of Polkadot, Hydration` when the failure cannot be pinned on one chain. */
function chainNamed(used: readonly ChainUsed[], pick?: (c: ChainUsed) => boolean): string {
  const found = pick && used.find(pick);
  if (found) return found.chain;
  const names = [...new Set(used.map((c) => c.chain))];
  if (names.length === 1) return names[0];
  return names.length === 0 ? 'reached by this request' : `(one of ${names.join(', ')})`;
}

/**
 * The chain side of a failure: a socket closed under a request or before its next call (503), a
 * frame or answer the service cannot use or an RPC error (502 ChainResponseError), no answer within
 * polkadot.js's own timeout (504), each naming the chain. Undefined when the error is not a chain's doing.
 */
export function fromChainFailure(error: unknown, used: readonly ChainUsed[]): ApiError | undefined {
  if (!(error instanceof Error) || error instanceof ApiError) return undefined;
  const connection = connectionStateOf(error);
  if (connection?.state === 'closed') {
    const { endpoint, code, reason } = connection;
    const chain = chainNamed(used, (c) => sameEndpoint(endpoint, c.endpoints));
    const what = reason ? `${code}: ${quote(reason)}` : String(code);
    if (code === MALFORMED_FRAME_CODE) return new ChainResponseError(chain, `sent a frame this service cannot use (${what})`);
    if (code === FRAME_TOO_BIG_CODE) return new ChainResponseError(chain, `sent a frame over the size limit (${what})`);
    return new ProviderUnavailableError(chain, [quote(endpoint)], `the connection was lost (close code ${what})`);
  }
  if (connection?.state === 'not-connected') {
    // The connection that went is the one whose socket reported a failure.
    const gone = used.find((c) => c.context.lastFailure !== undefined);
    const failure = gone?.context.lastFailure ?? 'the connection was closed';
    const chain = gone?.chain ?? chainNamed(used);
    if (isFrameFailure(failure)) return new ChainResponseError(chain, `sent a frame this service cannot use (${failure})`);
    return new ProviderUnavailableError(chain, gone ? gone.endpoints.map((e) => quote(e)) : [], `the connection was lost (${failure})`);
  }
  if (connection?.state === 'no-answer') return new DeadlineExceededError(`Chain ${chainNamed(used)}'s answer`, connection.seconds * 1000);
  if (error.name === 'RpcError') {
    const chain = chainNamed(used, (c) => c.context.lastRpcError !== undefined && error.message.startsWith(c.context.lastRpcError));
    return new ChainResponseError(chain, `answered with an RPC error: ${quote(error.message)}`);
  }
  if (UNDECODABLE.test(error.message)) {
    return new ChainResponseError(chainNamed(used), `answered with data that does not decode: ${quote(error.message)}`);
  }
  return undefined;
}
