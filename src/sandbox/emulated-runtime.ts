// What the sandbox's chains answer to the runtime calls a wallet's pre-flight makes, from the same
// code that runs at inclusion, so a quote is what then happens:
// - TransactionPaymentApi_query_info: the fee model's fee for the extrinsic's length (fee-model.ts),
//   what inclusion debits;
// - XcmPaymentApi: a program's weight, its price in each asset the chain takes (AssetNotFound for
//   any other), the delivery fee of a message, the assets taken for fees;
// - DryRunApi_dry_run_call: the call dispatched (pallets.ts) on the chain's ledger and rolled back:
//   its events, the local program and the messages it forwards; dry_run_xcm: the message executed
//   (xcm-executor.ts) and rolled back, with the events a block would carry for it;
// - AssetConversionApi (Asset Hub's pools): a price at the fee model's rates.
import type { TypeRegistry } from '@polkadot/types';
import { assetOf as chainAssetOf, assetsOf, nativeOf } from './assets';
import { encodeEvent } from './blocks';
import type { ChainNode, SandboxChainName } from './chain-node';
import { bridgeHubJson, crossesBridge, exportProgram } from './bridge';
import { bridgeFee, CALL_WEIGHT, deliveryFeeTo, programWeight, transactionFee, weightFee, type Weight } from './fee-model';
import { ChainError, type Ledger } from './ledger';
import { messageEvents, type Event } from './message-events';
import { dispatch } from './pallets';
import { executionErrorIndex, runtimeArgs } from './runtime-answers';
import { destinationJson } from './xcm-transfers';
import { chainAt, execute, type Hex, type Outgoing } from './xcm-executor';
import { assetJson, field, locationOf, locJson, programOf, unversioned } from './xcm-program';

const DRY_RUN_TOPIC: Hex = `0x${'ab'.repeat(32)}`;
const ROOT_FUNDS = 10n ** 30n;

const encoded = (registry: TypeRegistry, events: Event[]): Uint8Array[] =>
  events.flatMap((e) => {
    try {
      return [encodeEvent(registry, { ...e, phase: 0 })];
    } catch {
      return [];
    }
  });

/**
 * Forwarded messages grouped by destination, as the runtime lists them (its router's queues): a
 * message for the other network goes to the bridge hub in the router's wrapping; one a bridge hub
 * exports goes to its messages pallet, no router queue, and is not listed.
 */
function forwarded(chain: SandboxChainName, sent: Outgoing[]): unknown[] {
  const byDest = new Map<string, { dest: unknown; messages: unknown[] }>();
  for (const s of sent) {
    if (s.exported) continue;
    const bridged = crossesBridge(chain, s.to);
    const dest = bridged ? bridgeHubJson : destinationJson(chain, s.to);
    const message = bridged ? exportProgram(chain, s.to, s.message, bridgeFee(chain)) : s.message;
    const key = JSON.stringify(dest);
    byDest.set(key, { dest, messages: [...(byDest.get(key)?.messages ?? []), { V5: message }] });
  }
  return [...byDest.values()].map(({ dest, messages }) => [{ V5: dest }, messages]);
}

const weightJson = (w: Weight) => ({ refTime: w.refTime, proofSize: w.proofSize });

function dryRunCall(chain: SandboxChainName, ledger: Ledger, registry: TypeRegistry, args: Uint8Array): unknown {
  const [origin] = runtimeArgs(registry, 'DryRunApi', 'dry_run_call', args);
  const originType = registry.metadata.apis.find((a) => a.name.eq('DryRunApi'))!.methods.find((m) => m.name.eq('dry_run_call'))!.inputs[0]!;
  const call = registry.createType('Call', args.subarray(registry.createType(registry.createLookupType(originType.type), args).encodedLength));
  const signed = field(field(origin, 'system'), 'signed');
  // Fee estimates dry-run as root: a well-funded account stands in for it.
  const signer = typeof signed === 'string' ? registry.createType('AccountId', signed).toHex() : chain === 'Moonbeam' ? `0x${'00'.repeat(20)}` : `0x${'00'.repeat(32)}`;
  return ledger.dryRun(() => {
    if (typeof signed !== 'string') for (const asset of assetsOf(chain)) ledger.credit(asset, signer, ROOT_FUNDS);
    try {
      const done = dispatch({ chain, ledger, signer, root: typeof signed !== 'string', topic: DRY_RUN_TOPIC }, call);
      return {
        Ok: {
          executionResult: { Ok: { actualWeight: null, paysFee: 'Yes' } },
          emittedEvents: encoded(registry, done.events),
          localXcm: done.local ? { V5: done.local } : null,
          forwardedXcms: forwarded(chain, done.sent),
        },
      };
    } catch (error) {
      if (!(error instanceof ChainError)) throw error;
      return { Ok: { executionResult: { Err: { postInfo: { actualWeight: null, paysFee: 'Yes' }, error: moduleError(registry, error) } }, emittedEvents: [], localXcm: null, forwardedXcms: [] } };
    }
  });
}

function moduleError(registry: TypeRegistry, error: ChainError): unknown {
  const pallet = registry.metadata.pallets.find((p) => p.name.eq(error.pallet));
  const variant = pallet && pallet.errors.isSome ? registry.lookup.getSiType(pallet.errors.unwrap().type).def.asVariant.variants.find((v) => v.name.eq(error.error)) : undefined;
  if (!pallet || !variant) return 'CannotLookup';
  const byte = (n: number) => n.toString(16).padStart(2, '0');
  // pallet-xcm's LocalExecutionIncompleteWithError carries the instruction's index and the XCM error (pallets.ts writes both in its message).
  const incomplete = error.error === 'LocalExecutionIncompleteWithError' ? /: (\w+) at instruction (\d+)/.exec(error.message) : null;
  let detail = '000000';
  try {
    if (incomplete) detail = `${byte(Number(incomplete[2]))}${byte(executionErrorIndex(registry, incomplete[1]!))}00`;
  } catch {
    // an error this metadata's ExecutionError does not name: the pallet's error alone
  }
  return { Module: { index: pallet.index.toNumber(), error: `0x${byte(variant.index.toNumber())}${detail}` } };
}

function dryRunXcm(chain: SandboxChainName, ledger: Ledger, registry: TypeRegistry, args: Uint8Array): unknown {
  const [from, message] = runtimeArgs(registry, 'DryRunApi', 'dry_run_xcm', args);
  const origin = locationOf(from);
  const program = programOf(message);
  return ledger.dryRun(() => {
    const outcome = execute({ chain, ledger, origin, fromRemote: true, topic: DRY_RUN_TOPIC }, program);
    const used = weightJson(outcome.weight);
    return {
      Ok: {
        executionResult: outcome.error ? { Incomplete: { used, error: { index: outcome.error.index, error: outcome.error.name } } } : { Complete: { used } },
        emittedEvents: encoded(registry, messageEvents(chain, outcome, origin)),
        forwardedXcms: forwarded(chain, outcome.sent),
      },
    };
  });
}

/** An XcmPaymentApi asset id (a versioned location) as this chain holds it. */
function feeAsset(chain: SandboxChainName, id: unknown) {
  const location = locationOf(field(unversioned(id), 'concrete') ?? unversioned(id));
  return chainAssetOf(chain, location);
}

/** Makes `node` answer the pre-flight's runtime calls from `ledger` and the chain's fee model. */
export function emulateRuntime(chain: SandboxChainName, node: ChainNode, ledger: Ledger): void {
  node.setRuntimeCall('TransactionPaymentApi_query_info', (args) => {
    // (uxt, len): the length is the last four bytes.
    const length = Buffer.from(args).readUInt32LE(args.length - 4);
    return { weight: weightJson(CALL_WEIGHT), class: 'Normal', partialFee: transactionFee(chain, length) };
  });
  node.setRuntimeCall('XcmPaymentApi_query_xcm_weight', (args, registry) => {
    const [message] = runtimeArgs(registry, 'XcmPaymentApi', 'query_xcm_weight', args);
    return { Ok: weightJson(programWeight(programOf(message).length)) };
  });
  node.setRuntimeCall('XcmPaymentApi_query_weight_to_asset_fee', (args, registry) => {
    const [weight, id] = runtimeArgs(registry, 'XcmPaymentApi', 'query_weight_to_asset_fee', args);
    const asset = feeAsset(chain, id);
    if (!asset || asset.perSecond === undefined) return { Err: 'AssetNotFound' };
    const w = weight as { refTime: number | string; proofSize: number | string };
    return { Ok: weightFee(chain, { refTime: BigInt(w.refTime), proofSize: BigInt(w.proofSize) }, asset) };
  });
  node.setRuntimeCall('XcmPaymentApi_query_delivery_fees', (args, registry) => {
    const [dest, message, assetId] = runtimeArgs(registry, 'XcmPaymentApi', 'query_delivery_fees', args);
    const version = Object.keys(dest as object)[0]?.toUpperCase() ?? 'V5';
    const native = nativeOf(chain);
    // Asked as the runtime would be: the message as it goes (its SetTopic included), to where it
    // goes (across the bridge, the router's wrapping and its bridge fee; to the bridge hub, as it is).
    const to = chainAt(chain, locationOf(unversioned(dest)));
    // An export's message is delivered inside it: its instructions count too.
    const instructions = programOf(message).reduce((n, [name, value]) => n + 1 + (name === 'ExportMessage' ? programOf(field(value, 'xcm')).length : 0), 0);
    const fee = deliveryFeeTo(chain, to ?? chain, instructions);
    if (assetId === undefined) return { Ok: { [version]: [assetJson({ id: native.location, amount: fee })] } };
    // XcmPaymentApi v2 (Moonbeam) quotes in the asset asked for, one it takes for fees.
    const asset = feeAsset(chain, assetId);
    if (asset?.perSecond === undefined) return { Err: 'AssetNotFound' };
    const amount = (fee * asset.perSecond + native.perSecond! - 1n) / native.perSecond!;
    return { Ok: { [version]: [assetJson({ id: asset.location, amount })] } };
  });
  node.setRuntimeCall('XcmPaymentApi_query_acceptable_payment_assets', () => ({
    Ok: assetsOf(chain)
      .filter((a) => a.perSecond !== undefined)
      .map((a) => ({ V5: locJson(a.location) })),
  }));
  // Asset Hub's pools, quoted at the fee model's prices: what the executor charges when it takes a
  // delivery fee (priced in the native token) from another asset it forwards (xcm-executor.ts).
  node.setRuntimeCall('AssetConversionApi_quote_price_exact_tokens_for_tokens', (args, registry) => {
    const [from, to, amount] = runtimeArgs(registry, 'AssetConversionApi', 'quote_price_exact_tokens_for_tokens', args);
    const [a, b] = [chainAssetOf(chain, locationOf(from)), chainAssetOf(chain, locationOf(to))];
    if (a?.perSecond === undefined || b?.perSecond === undefined) return null;
    return (BigInt(amount as string | number) * b.perSecond + a.perSecond - 1n) / a.perSecond;
  });
  node.setRuntimeCall('DryRunApi_dry_run_call', (args, registry) => dryRunCall(chain, ledger, registry, args));
  node.setRuntimeCall('DryRunApi_dry_run_xcm', (args, registry) => dryRunXcm(chain, ledger, registry, args));
}
