// Reads a serialized EVM transaction: chain id, the contract it calls (named when it is a known
// precompile, the Snowbridge gateway or a registry token), the function and arguments, and what it
// transfers; an XCM-interface call's program with the chain's metadata (xcm-interface-reader.ts);
// an ERC-20 approval (what /evm-approve builds) and whom it lets spend what.
import type { TChain, TRelaychain } from '@paraspell/sdk-pjs';
import type { Registry } from '@polkadot/types/types';
import { decodeFunctionData, erc20Abi, getAddress, maxUint256, maxUint64, parseTransaction, toFunctionSelector, type Hex } from 'viem';
import { badRequest } from '../../errors';
import { sdk, utilCrypto } from '../../sdk';
import { XCM_INTERFACE_ABI, XCM_INTERFACE_PRECOMPILE, ETHEREUM_CHAIN_ID, GATEWAY, GATEWAY_ABI, NATIVE_ERC20, XTOKENS_ABI, XTOKENS_ORIGINS, XTOKENS_PRECOMPILE } from '../evm';
import { assetAmount, ecosystemOf } from './xcm-reader';
import { readXcmInterfaceCall } from './xcm-interface-reader';
import type { AssetAmount, EvmReading, EvmView } from './views';

/** EVM chain ids of the chains this reader knows (Darwinia's is in the notes; it has no XTokens here). */
const CHAIN_IDS: Record<number, TChain> = {
  [ETHEREUM_CHAIN_ID]: 'Ethereum',
  46: 'Darwinia',
  ...Object.fromEntries(Object.entries(XTOKENS_ORIGINS).map(([chain, id]) => [id, chain as TChain])),
};

/** The transaction, or null when `hex` is not a serialized EVM transaction. */
export function parseEvmTransaction(hex: string): ReturnType<typeof parseTransaction> | null {
  try {
    return parseTransaction(hex as Hex);
  } catch {
    return null;
  }
}

const jsonArgs = (names: readonly string[], values: readonly unknown[]): Record<string, unknown> =>
  Object.fromEntries(names.map((n, i) => [n, toJson(values[i])]));

function toJson(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v;
}

/** A precompile junction: one selector byte, then the value (the XCM-transactor encoding). */
function readJunction(hex: Hex): { type: string; value: string } {
  const bytes = Buffer.from(hex.slice(2), 'hex');
  const body = bytes.subarray(1);
  switch (bytes[0]) {
    case 0:
      return { type: 'Parachain', value: String(body.readUInt32BE(0)) };
    case 1:
      return { type: 'AccountId32', value: `0x${body.subarray(0, 32).toString('hex')}` };
    case 3:
      return { type: 'AccountKey20', value: getAddress(`0x${body.subarray(0, 20).toString('hex')}`) };
    default:
      return { type: `Junction${bytes[0]}`, value: `0x${body.toString('hex')}` };
  }
}

function place(origin: TChain, destination: { parents: number; interior: readonly Hex[] }) {
  const junctions = destination.interior.map(readJunction);
  const ecosystem = ecosystemOf(origin) as TRelaychain;
  const para = junctions.find((j) => j.type === 'Parachain');
  const chain = destination.parents === 1 ? (para ? sdk.getTChain(Number(para.value), ecosystem) : ecosystem) : null;
  const account = junctions.find((j) => j.type === 'AccountId32' || j.type === 'AccountKey20');
  let beneficiary: string | null = account?.value ?? null;
  if (account?.type === 'AccountId32' && chain && chain !== 'Ethereum') beneficiary = utilCrypto.encodeAddress(account.value, sdk.getAssetsObject(chain).ss58Prefix);
  return { chain, beneficiary, junctions };
}

function xc20Asset(chain: TChain, currency: string, amount: bigint): AssetAmount {
  const address = currency.toLowerCase();
  let info: ReturnType<typeof sdk.findAssetInfo> = null;
  try {
    if (address === NATIVE_ERC20.toLowerCase()) info = sdk.findNativeAssetInfo(chain);
    else if (address.startsWith('0xffffffff')) info = sdk.findAssetInfo(chain, { id: BigInt(`0x${address.slice(10)}`).toString() }, null);
    else info = sdk.findAssetInfo(chain, { id: address }, null);
  } catch {
    info = null;
  }
  return assetAmount(info, amount.toString(), currency);
}

const TRANSFER_USING_TYPE = toFunctionSelector(XCM_INTERFACE_ABI[0]);
const APPROVE = toFunctionSelector('approve(address,uint256)');

/**
 * Whether reading the transaction takes the chain's metadata: the XCM-interface call this service
 * builds carries a SCALE-encoded XCM program (a Substrate chain's own call, so not on Ethereum).
 */
export function needsMetadata(chain: TChain, tx: NonNullable<ReturnType<typeof parseEvmTransaction>>): boolean {
  return chain !== 'Ethereum' && !!tx.to && getAddress(tx.to) === XCM_INTERFACE_PRECOMPILE && (tx.data ?? '0x').slice(0, 10).toLowerCase() === TRANSFER_USING_TYPE;
}

/** `registry`: the chain's metadata types, for the XCM program an XCM-interface call carries. */
export function readEvmTransaction(chain: TChain, tx: NonNullable<ReturnType<typeof parseEvmTransaction>>, registry: Registry | null = null): EvmReading {
  const chainId = tx.chainId ?? 0;
  const expected = CHAIN_IDS[chainId];
  const warnings: EvmReading['warnings'] = [];
  if (expected !== chain) {
    warnings.push({ code: 'ChainIdMismatch', severity: 'danger', message: `The transaction is for chain id ${chainId}${expected ? ` (${expected})` : ''}, not ${chain}` });
  }
  const to = tx.to ? getAddress(tx.to) : null;
  const view: EvmView = { chainId, to, contract: null, function: null, args: null, value: (tx.value ?? 0n).toString() };
  const reading: EvmReading = { evm: view, transfers: [], xcm: [], warnings };
  const data = tx.data ?? '0x';
  try {
    readContractCall(chain, to, data, reading, registry);
  } catch (error) {
    warnings.push({ code: 'UndecodableContractCall', severity: 'danger', message: `The data does not decode with ${view.contract ?? 'the contract'}'s ABI: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
  }
  return reading;
}

function readContractCall(chain: TChain, to: string | null, data: Hex, reading: EvmReading, registry: Registry | null): void {
  const { evm: view, transfers, warnings } = reading;
  if (to === XTOKENS_PRECOMPILE) {
    view.contract = 'XTokens precompile';
    const decoded = decodeFunctionData({ abi: XTOKENS_ABI, data });
    const item = XTOKENS_ABI.find((f) => f.name === decoded.functionName)!;
    view.function = decoded.functionName;
    view.args = jsonArgs(item.inputs.map((i) => i.name ?? ''), decoded.args ?? []);
    const args = decoded.args as readonly unknown[];
    const destination = args[args.length - 2] as { parents: number; interior: readonly Hex[] };
    const weight = args[args.length - 1] as bigint;
    const dest = place(chain, destination);
    const assets =
      decoded.functionName === 'transferMultiCurrencies'
        ? (args[0] as readonly { currencyAddress: string; amount: bigint }[]).map((c) => xc20Asset(chain, c.currencyAddress, c.amount))
        : [xc20Asset(chain, args[0] as string, args[1] as bigint)];
    transfers.push({
      kind: 'reserveTransfer',
      origin: chain,
      destination: dest.chain ?? 'unknown',
      ...(dest.chain ? {} : { destinationLocation: toJson(destination) }),
      beneficiary: dest.beneficiary ?? { location: toJson(destination) },
      assets,
      feeLimit: weight === maxUint64 ? 'unlimited' : { refTime: weight.toString(), proofSize: '0' },
    });
  } else if (to === GATEWAY) {
    view.contract = 'Snowbridge gateway';
    const decoded = decodeFunctionData({ abi: GATEWAY_ABI, data });
    view.function = decoded.functionName;
    view.args = jsonArgs(GATEWAY_ABI.find((f) => f.name === decoded.functionName)!.inputs.map((i) => i.name ?? ''), decoded.args ?? []);
    if (decoded.functionName !== 'sendToken') return;
    const [token, paraId, address, , amount] = decoded.args;
    const destination = sdk.getTChain(paraId, 'Polkadot');
    const raw = address.data;
    const beneficiary =
      address.kind === 1 && destination ? utilCrypto.encodeAddress(raw, sdk.getAssetsObject(destination).ss58Prefix) : address.kind === 2 ? getAddress(raw) : raw;
    transfers.push({ kind: 'bridge', origin: 'Ethereum', destination: destination ?? 'unknown', beneficiary, assets: [xc20Asset('Ethereum', token, amount)] });
  } else if (to === XCM_INTERFACE_PRECOMPILE) {
    view.contract = 'XCM interface precompile';
    const decoded = decodeFunctionData({ abi: XCM_INTERFACE_ABI, data });
    view.function = decoded.functionName;
    view.args = jsonArgs(XCM_INTERFACE_ABI[0].inputs.map((i) => i.name), decoded.args);
    const [destination, assets, assetsTransferType, remoteFeesIdIndex, feesTransferType, customXcmOnDest] = decoded.args;
    const read = readXcmInterfaceCall(
      {
        origin: chain,
        destination: place(chain, destination).chain,
        assets: assets.map((a) => ({ address: a.asset, asset: xc20Asset(chain, a.asset, a.amount) })),
        assetsTransferType,
        remoteFeesIdIndex,
        feesTransferType,
        customXcmOnDest,
      },
      registry,
    );
    if (read.customXcm !== undefined) view.customXcmOnDest = read.customXcm;
    transfers.push(...read.transfers);
    reading.xcm.push(...read.xcm);
    warnings.push(...read.warnings);
  } else if (!(to && data.slice(0, 10).toLowerCase() === APPROVE && readApproval(chain, to, data, reading))) {
    warnings.push({ code: 'UnknownContract', severity: 'caution', message: `${to ?? 'a contract creation'} is not a contract this explanation reads` });
  }
}

/**
 * `approve(spender, amount)` on a token the registry knows on `chain`: it moves nothing, it lets
 * the spender take up to the amount from the signer. The Snowbridge gateway is the spender
 * /evm-approve names; any other is one this service cannot vouch for. False for another contract.
 */
function readApproval(chain: TChain, to: string, data: Hex, reading: EvmReading): boolean {
  const token = xc20Asset(chain, to, 0n);
  if (token.symbol === null) return false;
  const { evm: view, warnings } = reading;
  const { args } = decodeFunctionData({ abi: erc20Abi, data });
  if (!args) return false;
  const [spender, amount] = args as readonly [Hex, bigint];
  const allowance = xc20Asset(chain, to, amount);
  view.contract = `${token.symbol} token (ERC-20)`;
  view.function = 'approve';
  view.args = jsonArgs(['spender', 'amount'], [getAddress(spender), amount]);
  const upTo = amount === maxUint256 ? `any amount of ${token.symbol}` : `up to ${allowance.amountWhole ?? allowance.amount} ${token.symbol}`;
  if (getAddress(spender) === GATEWAY) {
    warnings.push({ code: 'TokenApproval', severity: 'info', message: `Lets the Snowbridge gateway take ${upTo} from the signer: the approval a transfer from Ethereum (POST /evm-x-transfer) needs first` });
  } else {
    warnings.push({ code: 'UnknownSpender', severity: 'danger', message: `Lets ${getAddress(spender)}, a contract this service does not know, take ${upTo} from the signer` });
  }
  if (amount === maxUint256) warnings.push({ code: 'UnlimitedApproval', severity: 'caution', message: `The approval has no limit: the spender may take every ${token.symbol} the signer holds, now and later` });
  return true;
}

export function requireEvmTransaction(hex: string): NonNullable<ReturnType<typeof parseEvmTransaction>> {
  const tx = parseEvmTransaction(hex);
  if (!tx) throw badRequest('UndecodableCallError', 'hex is not a serialized EVM transaction (RLP, EIP-1559 or legacy)', [{ path: 'body.hex', message: 'is not a serialized EVM transaction' }]);
  return tx;
}
