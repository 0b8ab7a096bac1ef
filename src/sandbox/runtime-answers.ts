// What a chain's runtime would answer to the calls pre-flight makes, shaped like a real chain's
// (the types are the chain's own: the test chain encodes every value with the output type its
// metadata declares, so a wrong shape fails to encode). Each test configures the answers it
// needs: a successful or failed dry run with the events and forwarded XCMs such a run emits,
// XcmPaymentApi weights and fees, and the transaction fee (`partialFee`).
import { util } from './polkadot-libs';
import type { TypeRegistry } from '@polkadot/types';
import type { ChainNode } from './chain-node';

/**
 * One runtime event as the chain encodes it (pallet index, event index, fields in order), from
 * the metadata: polkadot.js decodes events from these bytes only.
 */
function runtimeEvent(registry: TypeRegistry, pallet: string, method: string, fields: Record<string, unknown>): Uint8Array {
  const p = registry.metadata.pallets.find((x) => x.name.eq(pallet));
  if (!p || p.events.isNone) throw new Error(`runtime-answers: no ${pallet} events in this metadata`);
  const variant = registry.lookup.getSiType(p.events.unwrap().type).def.asVariant.variants.find((v) => v.name.eq(method));
  if (!variant) throw new Error(`runtime-answers: no event ${pallet}.${method} in this metadata`);
  const encoded = variant.fields.map((f) => {
    const name = util.stringCamelCase(f.name.unwrap().toString());
    if (!(name in fields)) throw new Error(`runtime-answers: event ${pallet}.${method} needs field ${name}`);
    return registry.createType(registry.createLookupType(f.type), fields[name]).toU8a();
  });
  return util.u8aConcat(new Uint8Array([p.index.toNumber(), variant.index.toNumber()]), ...encoded);
}

// ---- XCM (version 5, what these metadata speak) --------------------------------------------

export const RELAY = { parents: 1, interior: 'Here' };
export const parachain = (id: number) => ({ parents: 1, interior: { X1: [{ Parachain: id }] } });
const account = (id: string) => ({ parents: 0, interior: { X1: [{ AccountId32: { network: null, id } }] } });
const dot = (amount: bigint) => ({ id: RELAY, fun: { Fungible: amount } });

/** The account id (hex) of an SS58 address, with the chain's registry. */
const accountId = (registry: TypeRegistry, address: string): string => registry.createType('AccountId32', address).toHex();

/** A teleport of `amount` DOT as the sending chain forwards it (what pallet-xcm builds). */
export function teleportMessage(registry: TypeRegistry, amount: bigint, beneficiary: string) {
  return [
    { ReceiveTeleportedAsset: [dot(amount)] },
    'ClearOrigin',
    { BuyExecution: { fees: dot(amount), weightLimit: 'Unlimited' } },
    { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: account(accountId(registry, beneficiary)) } },
    { SetTopic: `0x${'ab'.repeat(32)}` },
  ];
}

/** A reserve transfer of `amount` DOT (or of the asset at location `id`) as Asset Hub forwards it to a parachain. */
export function reserveMessage(registry: TypeRegistry, amount: bigint, beneficiary: string, id: unknown = RELAY) {
  const asset = { id, fun: { Fungible: amount } };
  return [
    { ReserveAssetDeposited: [asset] },
    'ClearOrigin',
    { BuyExecution: { fees: asset, weightLimit: 'Unlimited' } },
    { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: account(accountId(registry, beneficiary)) } },
    { SetTopic: `0x${'cd'.repeat(32)}` },
  ];
}

/**
 * What a reserve chain receives when a parachain sends it an asset it is the reserve of, to be
 * deposited on `dest` (orml-xtokens' transfer to a non-reserve destination): the reserve
 * withdraws the asset (`asset` is its location as the reserve sees it), buys execution with half
 * of it and forwards the rest to `dest` as a reserve deposit. `inDest` is the asset's location as
 * `dest` sees it.
 */
export function throughReserveMessage(registry: TypeRegistry, r: { asset: unknown; inDest: unknown; amount: bigint; dest: unknown; beneficiary: string }) {
  const fungible = (id: unknown, amount: bigint) => ({ id, fun: { Fungible: amount } });
  return [
    { WithdrawAsset: [fungible(r.asset, r.amount)] },
    'ClearOrigin',
    { BuyExecution: { fees: fungible(r.asset, r.amount / 2n), weightLimit: 'Unlimited' } },
    {
      DepositReserveAsset: {
        assets: { Wild: { AllCounted: 1 } },
        dest: r.dest,
        xcm: [
          { BuyExecution: { fees: fungible(r.inDest, r.amount / 2n), weightLimit: 'Unlimited' } },
          { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: account(accountId(registry, r.beneficiary)) } },
        ],
      },
    },
    { SetTopic: `0x${'ef'.repeat(32)}` },
  ];
}

export interface Forwarded {
  destination: unknown;
  message: unknown[];
}

const weight = (refTime: bigint, proofSize: bigint) => ({ refTime, proofSize });

// ---- DryRunApi_dry_run_call ------------------------------------------------------------------

export interface CallSuccess {
  /** Who signs (SS58): pays the delivery fee. */
  sender: string;
  /** The delivery fee pallet-xcm charges in the native asset (a FeesPaid event), if any. */
  deliveryFee?: bigint;
  /** What the call burns/withdraws from the sender. */
  amount: bigint;
  forwarded?: Forwarded;
  actualWeight?: { refTime: bigint; proofSize: bigint };
  /** pallet-xcm's section name on this chain. */
  xcmPallet?: 'PolkadotXcm' | 'XcmPallet';
  /** The XCM program pallet-xcm executed locally (V5 instructions), what XcmPaymentApi weighs; none by default. */
  localXcm?: unknown[];
}

/** A dispatched call that succeeded, with the events a transfer emits and the XCM it forwards. */
export function callSuccess(registry: TypeRegistry, s: CallSuccess) {
  const pallet = s.xcmPallet ?? 'PolkadotXcm';
  const sender = accountId(registry, s.sender);
  const events: Uint8Array[] = [runtimeEvent(registry, 'Balances', 'Burned', { who: sender, amount: s.amount })];
  if (s.deliveryFee !== undefined) events.push(runtimeEvent(registry, pallet, 'FeesPaid', { paying: account(sender), fees: [dot(s.deliveryFee)] }));
  if (s.forwarded) {
    events.push(runtimeEvent(registry, pallet, 'Sent', { origin: account(sender), destination: s.forwarded.destination, message: s.forwarded.message, messageId: `0x${'ab'.repeat(32)}` }));
  }
  return {
    Ok: {
      executionResult: { Ok: { actualWeight: s.actualWeight ?? null, paysFee: 'Yes' } },
      emittedEvents: events,
      localXcm: s.localXcm ? { V5: s.localXcm } : null,
      forwardedXcms: s.forwarded ? [[{ V5: s.forwarded.destination }, [{ V5: s.forwarded.message }]]] : [],
    },
  };
}

/**
 * A call that failed in pallet-xcm with `LocalExecutionIncompleteWithError { index, error }`:
 * the module error is encoded with the indices this chain's metadata gives the pallet, the
 * pallet error and the XCM error (as the runtime does).
 */
export function callFailure(registry: TypeRegistry, f: { xcmError: string; instruction: number; xcmPallet?: 'PolkadotXcm' | 'XcmPallet' }) {
  const palletName = f.xcmPallet ?? 'PolkadotXcm';
  const pallet = registry.metadata.pallets.find((p) => p.name.eq(palletName));
  if (!pallet || pallet.errors.isNone) throw new Error(`runtime-answers: no ${palletName} errors in this metadata`);
  const errorIndex = variantIndex(registry, pallet.errors.unwrap().type.toNumber(), 'LocalExecutionIncompleteWithError');
  const xcmErrorIndex = executionErrorIndex(registry, f.xcmError);
  const error = `0x${hex(errorIndex)}${hex(f.instruction)}${hex(xcmErrorIndex)}00`;
  return {
    Ok: {
      executionResult: { Err: { postInfo: { actualWeight: null, paysFee: 'Yes' }, error: { Module: { index: pallet.index.toNumber(), error } } } },
      emittedEvents: [],
      localXcm: null,
      forwardedXcms: [],
    },
  };
}

const hex = (n: number) => n.toString(16).padStart(2, '0');

function variantIndex(registry: TypeRegistry, typeId: number, name: string): number {
  const def = registry.lookup.getSiType(typeId).def;
  const v = def.asVariant.variants.find((x) => x.name.eq(name));
  if (!v) throw new Error(`runtime-answers: no variant ${name} in type ${typeId}`);
  return v.index.toNumber();
}

/** Index of an XCM ExecutionError variant (pallet-xcm's `error` byte), from the chain's metadata. */
export function executionErrorIndex(registry: TypeRegistry, name: string): number {
  for (const t of registry.lookup.types) {
    const path = t.type.path.map((p) => p.toString()).join('::');
    if (/ExecutionError$/.test(path) && t.type.def.isVariant) return variantIndex(registry, t.id.toNumber(), name);
  }
  throw new Error('runtime-answers: no ExecutionError type in this metadata');
}

// ---- DryRunApi_dry_run_xcm -------------------------------------------------------------------

/** A received XCM that completed: the beneficiary was minted `received`, the fee went to the fee pot. */
export function xcmComplete(registry: TypeRegistry, r: { beneficiary: string; received: bigint; used?: { refTime: bigint; proofSize: bigint }; forwarded?: Forwarded }) {
  const who = accountId(registry, r.beneficiary);
  return {
    Ok: {
      executionResult: { Complete: { used: r.used ?? weight(1_000_000_000n, 20_000n) } },
      emittedEvents: [runtimeEvent(registry, 'Balances', 'Minted', { who, amount: r.received })],
      forwardedXcms: r.forwarded ? [[{ V5: r.forwarded.destination }, [{ V5: r.forwarded.message }]]] : [],
    },
  };
}

/** A received XCM stopped at instruction `index` with `error` (e.g. Barrier, UntrustedReserveLocation). */
export function xcmIncomplete(r: { error: string; index: number; used?: { refTime: bigint; proofSize: bigint } }) {
  return {
    Ok: {
      executionResult: { Incomplete: { used: r.used ?? weight(500_000_000n, 10_000n), error: { index: r.index, error: r.error } } },
      emittedEvents: [],
      forwardedXcms: [],
    },
  };
}

// ---- configuring a chain ---------------------------------------------------------------------

/**
 * The chain answers DryRunApi_dry_run_call with `result` (built with its registry); `seen`
 * collects each call the SDK asked to dry-run, decoded with the chain's metadata.
 */
export function answerDryRunCall(chain: ChainNode, result: (registry: TypeRegistry) => unknown, seen?: unknown[]): void {
  chain.setRuntimeCall('DryRunApi_dry_run_call', (args, registry) => {
    if (seen) {
      const input = registry.metadata.apis.find((a) => a.name.eq('DryRunApi'))?.methods.find((m) => m.name.eq('dry_run_call'))?.inputs[0];
      if (!input) throw new Error('runtime-answers: no DryRunApi.dry_run_call in this metadata');
      const origin = registry.createType(registry.createLookupType(input.type), args);
      seen.push(registry.createType('Call', args.subarray(origin.encodedLength)).toJSON());
    }
    return result(registry);
  });
}

export function answerDryRunXcm(chain: ChainNode, result: (registry: TypeRegistry) => unknown): void {
  chain.setRuntimeCall('DryRunApi_dry_run_xcm', (_args, registry) => result(registry));
}

/**
 * XcmPaymentApi: every message weighs `weight`, which costs `fee` in any accepted asset (DOT);
 * delivering onward costs `deliveryFee` DOT, answered in XCM `deliveryVersion` (a chain answers in
 * the version it is asked in: V5 for what these runtimes forward, the default).
 */
export function answerXcmPayment(chain: ChainNode, p: { weight?: { refTime: bigint; proofSize: bigint }; fee: bigint; deliveryFee?: bigint; deliveryVersion?: 'V4' | 'V5' }): void {
  chain.setRuntimeCall('XcmPaymentApi_query_xcm_weight', () => ({ Ok: p.weight ?? weight(1_000_000_000n, 20_000n) }));
  chain.setRuntimeCall('XcmPaymentApi_query_weight_to_asset_fee', () => ({ Ok: p.fee }));
  chain.setRuntimeCall('XcmPaymentApi_query_delivery_fees', () => ({ Ok: { [p.deliveryVersion ?? 'V5']: p.deliveryFee ? [dot(p.deliveryFee)] : [] } }));
  chain.setRuntimeCall('XcmPaymentApi_query_acceptable_payment_assets', () => ({ Ok: [{ V5: RELAY }] }));
}

/** TransactionPaymentApi_query_info: what `tx.paymentInfo()` reads (the SDK's execution fee). */
export function answerQueryInfo(chain: ChainNode, partialFee: bigint): void {
  chain.setRuntimeCall('TransactionPaymentApi_query_info', () => ({ weight: weight(200_000_000n, 4_000n), class: 'Normal', partialFee }));
}

/** The arguments of runtime call `api.method`, decoded in order with the input types the chain's metadata declares. */
export function runtimeArgs(registry: TypeRegistry, api: string, method: string, args: Uint8Array): unknown[] {
  const inputs = registry.metadata.apis.find((a) => a.name.eq(api))?.methods.find((m) => m.name.eq(method))?.inputs;
  if (!inputs) throw new Error(`runtime-answers: no ${api}.${method} in this metadata`);
  let rest = args;
  return inputs.map((input) => {
    const value = registry.createType(registry.createLookupType(input.type), rest);
    rest = rest.subarray(value.encodedLength);
    return value.toJSON();
  });
}

/**
 * XcmPaymentApi priced per asset, as a chain that accepts several fee assets answers:
 * `query_xcm_weight` weighs every program `weight` (each program asked about, as JSON, goes to
 * `weighed`), and `query_weight_to_asset_fee` answers `feeIn(assetId, weight)` for the asset id (a
 * versioned location as JSON, e.g. `{ v4: { parents, interior } }`) and the weight asked about, or `AssetNotFound` where it
 * gives undefined (the chain refuses the asset).
 */
export function answerAssetFees(chain: ChainNode, p: { weight: { refTime: bigint; proofSize: bigint }; feeIn: (assetId: unknown, weight: unknown) => bigint | undefined; weighed?: unknown[] }): void {
  chain.setRuntimeCall('XcmPaymentApi_query_xcm_weight', (args, registry) => {
    p.weighed?.push(runtimeArgs(registry, 'XcmPaymentApi', 'query_xcm_weight', args)[0]);
    return { Ok: p.weight };
  });
  chain.setRuntimeCall('XcmPaymentApi_query_weight_to_asset_fee', (args, registry) => {
    const [weighed, assetId] = runtimeArgs(registry, 'XcmPaymentApi', 'query_weight_to_asset_fee', args);
    const fee = p.feeIn(assetId, weighed);
    return fee === undefined ? { Err: 'AssetNotFound' } : { Ok: fee };
  });
}

/**
 * AssetConversionApi_quote_price_exact_tokens_for_tokens (Asset Hub's pools): `quote(amountIn)` of
 * the asset out for `amountIn` of the asset in, answered as the runtime's `Some`.
 */
export function answerPoolQuote(chain: ChainNode, quote: (amountIn: bigint) => bigint): void {
  chain.setRuntimeCall('AssetConversionApi_quote_price_exact_tokens_for_tokens', (args, registry) => {
    const amountIn = runtimeArgs(registry, 'AssetConversionApi', 'quote_price_exact_tokens_for_tokens', args)[2];
    return quote(BigInt(amountIn as number | string));
  });
}
