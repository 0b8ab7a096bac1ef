// Patch: Moonbeam's XC-20 balances are read with `eth_call` over the connection the SDK already has
// to Moonbeam, not from a public HTTP endpoint.
//
// Corrects: sdk-core 11.14.8's `Moonbeam.getBalanceForeign` (`getMoonbeamErc20Balance`) reads an
// XC-20's `balanceOf` through viem from the hard-coded https://rpc.api.moonbeam.network/, whatever
// endpoint the caller chose: outside the pool, its deadline and its address guard, and offline a
// failure the service answered 500 (Moonbeam -> Polkadot, Hydration, AssetHubPolkadot DOT read the
// sender's xcDOT while building). A Moonbeam node serves its Ethereum JSON-RPC on the same socket as
// its Substrate RPC (Frontier), so the same `balanceOf(address)` call goes as `eth_call` to the
// node the request uses (its apiOverrides, the pool, the deadline; an unreachable node is the
// pool's 503 naming it). The node may be a stranger's: its answer is taken raw and must be one
// 32-byte hex word (checked by its length before anything reads it), else a 502 naming Moonbeam
// and eth_call; polkadot.js's own `eth.call` decoded any answer (a JSON object was a 500, "0xzz" a
// balance, 15 MB of hex held the event loop).
//
// Still needed? Read sdk-core's `Moonbeam.getBalanceForeign` / `getMoonbeamErc20Balance`: when it
// reads through the chain API it was given (or takes an endpoint), the patch can go. Remove it and
// run the guard tests.
//
// Guarded by: test/http/moonbeam-origin.test.ts "Moonbeam -> %s DOT builds offline: the xcDOT
// balance is read with eth_call from the Moonbeam node the request uses";
// test/hostile/moonbeam-eth-call.test.ts "%s: 502 naming Moonbeam and eth_call, in both families";
// test/http/moonbeam-origin.test.ts "a client's own Moonbeam node on the operator's shared runtime".
import type { TAssetInfo } from '@paraspell/sdk-pjs';
import type { ApiPromise } from '@polkadot/api';
import { ChainResponseError } from '../../errors';
import { sdk } from '../load';
import { rpcProvider } from './shared-runtime';

/** What the patch needs of sdk-pjs's chain API: its ApiPromise (the pooled connection). */
interface SdkChainApi {
  api: ApiPromise;
}

/** An answer to `balanceOf`: one 32-byte word. */
const WORD = /^0x[0-9a-fA-F]{64}$/;

/** The balance in an `eth_call` answer; anything but one word is the node's fault, told without echoing it. */
function balanceIn(answer: unknown): bigint {
  if (typeof answer === 'string' && answer.length === 66 && WORD.test(answer)) return BigInt(answer);
  const what = typeof answer === 'string' ? `${answer.length} characters that are not one 32-byte hex word` : `a JSON ${answer === null ? 'null' : Array.isArray(answer) ? 'array' : typeof answer}`;
  throw new ChainResponseError('Moonbeam', `answered eth_call (an XC-20's balanceOf) with ${what}`);
}

interface ChainWithForeignBalances {
  getBalanceForeign(api: SdkChainApi, address: string, asset: TAssetInfo): Promise<bigint>;
}

/** `balanceOf(address)`'s selector. */
const BALANCE_OF = '0x70a08231';

/** An XC-20's address: 0xffffffff then the asset id as 32 hex digits (an address as is). */
function xc20(assetId: string): string {
  if (assetId.startsWith('0x')) return assetId;
  return `0xffffffff${BigInt(assetId).toString(16).padStart(32, '0')}`;
}

export function readMoonbeamErc20BalancesOverTheChain(): void {
  const moonbeam = (sdk as unknown as { getChain(chain: string): ChainWithForeignBalances }).getChain('Moonbeam');
  const proto = Object.getPrototypeOf(moonbeam) as ChainWithForeignBalances;
  proto.getBalanceForeign = async function (api, address, asset) {
    const assetId = 'assetId' in asset && typeof asset.assetId === 'string' ? asset.assetId : undefined;
    if (assetId === undefined) throw new sdk.InvalidCurrencyError(`${asset.symbol} on Moonbeam has no asset id: its XC-20 balance cannot be read`);
    // The provider polkadot.js's RPC core sends on: a connection on a shared runtime keeps none in its options.
    const provider = rpcProvider(api.api);
    if (!(api.api.rpc as { eth?: unknown }).eth) throw new sdk.UnableToComputeError('The Moonbeam node does not serve the Ethereum JSON-RPC (eth_call), which reads XC-20 balances');
    const data = `${BALANCE_OF}${address.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;
    return balanceIn(await provider.send('eth_call', [{ to: xc20(assetId), data }]));
  };
}
