// What the sandbox's chains answer to the runtime calls a wallet's pre-flight makes, in place of a
// runtime (none executes here). Every answer is shaped like a real chain's and encoded with the
// chain's own metadata types (chain-node.ts refuses a wrong shape), and fits the call asked about:
// - DryRunApi_dry_run_call: success, the sender's amount burned, the delivery fee paid and, for an
//   XCM transfer, the message forwarded to the chain its `dest` names;
// - DryRunApi_dry_run_xcm: complete, the beneficiary minted the amount less the execution fee, and
//   the message sent on where the program says so (a reserve transfer through Asset Hub);
// - XcmPaymentApi and TransactionPaymentApi: fixed weights and fees (FEES below).
import type { TypeRegistry } from '@polkadot/types';
import type { ChainNode, SandboxChainName } from './chain-node';
import { answerQueryInfo, answerXcmPayment, callSuccess, runtimeArgs, xcmComplete, type Forwarded } from './runtime-answers';
import { accountIn, amountIn, chainOf, find, locationOf, onwardIn, planOf, xcmPalletOf } from './topology';
import type { Hex } from './xcm-events';

/** Made-up fees, in the relay chain's token (planck), as real chains' are in size. */
export interface Fees {
  /** TransactionPaymentApi: the origin's fee for the extrinsic. */
  transaction: bigint;
  /** XcmPaymentApi: executing a received message. */
  execution: bigint;
  /** XcmPaymentApi and the dry run's FeesPaid: delivering a message onward. */
  delivery: bigint;
}

const POLKADOT_FEES: Fees = { transaction: 160_000_000n, execution: 20_000_000n, delivery: 30_000_000n };
const KUSAMA_FEES: Fees = { transaction: 5_000_000_000n, execution: 600_000_000n, delivery: 1_000_000_000n };

export const feesOf = (chain: SandboxChainName): Fees => (chain === 'Kusama' || chain === 'AssetHubKusama' ? KUSAMA_FEES : POLKADOT_FEES);

const asset = (amount: bigint) => ({ id: { parents: 1, interior: 'Here' }, fun: { Fungible: amount } });

/** A beneficiary location for an account id (32 bytes) or key (20 bytes). */
const beneficiaryOf = (account: string) =>
  account.length === 42
    ? { parents: 0, interior: { X1: [{ AccountKey20: { network: null, key: account } }] } }
    : { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: account } }] } };

/** What a chain forwards: the asset deposited with `to`, and either paid out there or sent on to `then`. */
export function forwardedMessage(from: SandboxChainName, to: SandboxChainName, amount: bigint, beneficiary: string, topic: Hex, then?: SandboxChainName): Forwarded {
  const deposit = { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: beneficiaryOf(beneficiary) } };
  const onward = then && then !== to ? { DepositReserveAsset: { assets: { Wild: { AllCounted: 1 } }, dest: locationOf(to, then), xcm: [{ BuyExecution: { fees: asset(amount / 2n), weightLimit: 'Unlimited' } }, deposit] } } : deposit;
  return {
    destination: locationOf(from, to),
    message: [{ ReserveAssetDeposited: [asset(amount)] }, 'ClearOrigin', { BuyExecution: { fees: asset(amount), weightLimit: 'Unlimited' } }, onward, { SetTopic: topic }],
  };
}

const DRY_RUN_TOPIC: Hex = `0x${'ab'.repeat(32)}`;

function dryRunCall(chain: SandboxChainName, registry: TypeRegistry, args: Uint8Array): unknown {
  const [origin] = runtimeArgs(registry, 'DryRunApi', 'dry_run_call', args);
  const originType = registry.metadata.apis.find((a) => a.name.eq('DryRunApi'))!.methods.find((m) => m.name.eq('dry_run_call'))!.inputs[0]!;
  const call = registry.createType('Call', args.subarray(registry.createType(registry.createLookupType(originType.type), args).encodedLength));
  const named: Record<string, unknown> = {};
  for (const [name, value] of call.argsEntries) named[name] = value.toJSON();
  const plan = planOf(chain, call.section, named);
  // Fee estimates dry-run as root: the events then name no one in particular.
  const signed = find(origin, 'signed');
  const sender = typeof signed === 'string' ? signed : `0x${'00'.repeat(32)}`;
  const fees = feesOf(chain);
  const forwarded = plan.kind === 'xcm' && plan.next && plan.beneficiary ? forwardedMessage(chain, plan.next, plan.amount, plan.beneficiary, DRY_RUN_TOPIC, plan.destination) : undefined;
  return callSuccess(registry, {
    sender,
    amount: plan.amount,
    deliveryFee: forwarded ? fees.delivery : undefined,
    forwarded,
    xcmPallet: xcmPalletOf(chain),
    actualWeight: { refTime: 1_500_000_000n, proofSize: 60_000n },
  });
}

function dryRunXcm(chain: SandboxChainName, registry: TypeRegistry, args: Uint8Array): unknown {
  const [from, program] = runtimeArgs(registry, 'DryRunApi', 'dry_run_xcm', args);
  const sender = chainOf(chain, from);
  const amount = amountIn(program) ?? 0n;
  const beneficiary = accountIn(find(program, 'depositAsset')) ?? accountIn(program);
  if (!beneficiary) throw new Error('the sandbox dry-runs messages that deposit to an account only');
  const received = amount > feesOf(chain).execution ? amount - feesOf(chain).execution : 0n;
  const onward = onwardIn(program);
  // Read as this chain sees it, else as the sender does (how the SDK writes it for a transfer through Asset Hub).
  const then = onward === undefined ? undefined : (chainOf(chain, onward) ?? (sender && chainOf(sender, onward)));
  const forwarded = then && then !== chain && sender ? forwardedMessage(chain, then, received, beneficiary, DRY_RUN_TOPIC) : undefined;
  return xcmComplete(registry, { beneficiary, received, forwarded });
}

/** Makes `node` answer dry runs, XCM fees and transaction fees as described above. */
export function emulateRuntime(chain: SandboxChainName, node: ChainNode): void {
  const fees = feesOf(chain);
  answerQueryInfo(node, fees.transaction);
  answerXcmPayment(node, { fee: fees.execution, deliveryFee: fees.delivery });
  node.setRuntimeCall('DryRunApi_dry_run_call', (args, registry) => dryRunCall(chain, registry, args));
  node.setRuntimeCall('DryRunApi_dry_run_xcm', (args, registry) => dryRunXcm(chain, registry, args));
}
