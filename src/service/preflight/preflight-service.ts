import type { TAssetInfo, TBridgeStatus, TChain, TCurrencyCore, TPjsApiOrUrl } from '@paraspell/sdk-pjs';
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { badRequest } from '../../errors';
import { offersDryRunApi, sdk, withQueryMemo, type ApiPromise } from '../../sdk';
import { scaleAmount } from '../../schemas/amount-scale';
import type { BalanceRequest, PreflightRequest } from '../../schemas/preflight';
import type { TransferOptions } from '../../schemas/transfer';
import { minTransferableAmount, originFeeCountsInAsset, transferableAmount, verifyEdOnDestination } from './amount-rules';
import { runOnChains, type ChainCall, sdkCall, withRequestAssets } from '../sdk-calls';
import { registryAssetResolver, type ContractAsset } from './contract-asset';
import { toDryRunResult, type DryRunResult } from './dry-run-result';
import { toTransferInfoResult, type TransferInfoResult } from './transfer-info-result';
import { toXcmFeeResult, type OriginXcmFeeResult, type XcmFeeResult } from './xcm-fee-result';
import { ethereumBalance } from '../evm';
import { checkBeforeDial, resolveOnChain } from '../offline-checks';
import { configure } from '../transfer';

type Builder = ReturnType<typeof sdk.Builder>;
type ApiOverrides = ChainCall['apiOverrides'];
type SenderBuilder = ReturnType<ReturnType<typeof configure>['senderAddress']>;

/**
 * sdk-pjs's PolkadotJsApi takes builder options (`{apiOverrides, development}`) wherever its .d.ts
 * says `api`; passing them (rather than an awaited ApiPromise) keeps the connection lazy, so the
 * SDK validates the address before anything is dialled.
 */
const lazyApi = (apiOverrides: ApiOverrides): TPjsApiOrUrl => ({ apiOverrides, development: true }) as unknown as TPjsApiOrUrl;

/** Balance of `address` on `chain`; the chain's native asset without `currency`. */
function balanceOf({ address, chain, currency, apiOverrides }: { address: string; chain: TChain; currency?: TCurrencyCore; apiOverrides: ApiOverrides }): Promise<bigint> {
  return currency
    ? sdk.getAssetBalance({ address, chain, currency, api: lazyApi(apiOverrides) })
    : sdk.getBalanceNative({ address, chain, api: lazyApi(apiOverrides) });
}

const NO_OVERRIDES: Pick<TransferOptions, 'apiOverrides' | 'development'> = { apiOverrides: {}, development: false };

function requireDryRun(chain: TChain, what: string): void {
  if (!sdk.hasDryRunSupport(chain)) {
    throw badRequest('RuntimeApiUnavailableError', `${what} needs the dry-run runtime API, which ${chain} does not provide (GET /chains/${chain}/has-dry-run-support)`);
  }
}

/** Whether `chain`'s runtime offers DryRunApi: the registry says so of runtimes older than it too (Kusama 1.0.0). */
const runtimeDryRuns = async (call: ChainCall, chain: string): Promise<boolean> => offersDryRunApi((await call.apiOverrides[chain]) as ApiPromise);

async function requireRuntimeDryRun(call: ChainCall, chain: string, what: string): Promise<void> {
  if (!(await runtimeDryRuns(call, chain))) {
    throw badRequest('RuntimeApiUnavailableError', `${what} needs the dry-run runtime API, which ${chain}'s runtime does not offer (it is older than the SDK's registry says)`);
  }
}

/**
 * The first hop the SDK cannot dry-run. Past it the SDK follows nothing: its destination (fee 0,
 * `noFeeRequired`, sufficient) is a placeholder, not an answer from the destination.
 */
const blindHop = (hops: readonly { chain: string }[]): string | undefined => hops.find((h) => !sdk.hasDryRunSupport(h.chain as TChain))?.chain;
const unreachedReason = (hop: string): string => `The XCM passes ${hop}, which has no dry-run support: the destination could not be dry-run`;

/**
 * Why the SDK's destination is a placeholder, if it is: the origin's runtime could not be dry-run
 * (`origin`: the XCM was never followed, so nothing past the origin is known), or a hop without
 * dry-run support.
 */
async function unreached(call: ChainCall, origin: string, hops: readonly { chain: string }[]): Promise<{ reason: string; origin?: true } | undefined> {
  if (!(await runtimeDryRuns(call, origin))) return { reason: `${origin}'s runtime offers no DryRunApi: the XCM could not be followed, so what it costs on the way and what arrives are not known`, origin: true };
  const hop = blindHop(hops);
  return hop ? { reason: unreachedReason(hop) } : undefined;
}

/** xcm-fee past a chain that could not be dry-run: the placeholder destination says so, and the query did not succeed. */
function markUnreachedDestination(fees: XcmFeeResult, destination: string, why: Awaited<ReturnType<typeof unreached>>): XcmFeeResult {
  if (!why || !fees.destination || fees.destination.dryRunError) return fees;
  const error = { reason: why.reason };
  // Past an origin that was not dry-run, `sufficient` was never asked of anything: left out, not a guess.
  const { sufficient, ...placeholder } = fees.destination;
  const dest = why.origin || sufficient === undefined ? placeholder : { ...placeholder, sufficient };
  return { ...fees, success: false, dryRunError: fees.dryRunError ?? { ...error, chain: destination, chainKind: 'destination' }, destination: { ...dest, dryRunError: error } };
}

/** transfer-info past an origin that could not be dry-run: the SDK's received amount is the whole amount, not what arrives. */
function markUnknownArrival(destination: NonNullable<TransferInfoResult['destination']>, reason: string): void {
  const unknown = { error: 'UnableToComputeError' as const, message: reason };
  destination.xcmFee.balanceAfter = unknown;
  Object.assign(destination.receivedCurrency, { sufficient: unknown, receivedAmount: unknown, balanceAfter: unknown });
}

/** The amount queries price a single asset: a multi-asset array is refused as such, before its items are looked up. */
function oneCurrency(req: PreflightRequest): Exclude<PreflightRequest['currency'], unknown[]> {
  if (Array.isArray(req.currency)) throw badRequest('ValidationError', 'Amount queries take one currency, not a multi-asset array');
  return req.currency as Exclude<PreflightRequest['currency'], unknown[]>;
}

/** One asset and its amount. */
function single(req: PreflightRequest): { core: TCurrencyCore; amount: string } {
  const { amount, ...selector } = oneCurrency(req);
  if ('location' in selector && typeof selector.location === 'object' && selector.location !== null && 'type' in selector.location) {
    throw badRequest('InvalidCurrencyError', 'Amount queries select registry assets; Override locations are not supported here');
  }
  return { core: selector as TCurrencyCore, amount };
}

/** The selector that finds `asset` again on its chain (location is the most precise one). */
function selectorOf(asset: TAssetInfo): TCurrencyCore {
  if (asset.location) return { location: asset.location };
  if ('assetId' in asset && asset.assetId !== undefined) return { id: asset.assetId };
  return { symbol: asset.symbol };
}

/** Fee assets come back translated (paymentInfo relabelled native); compare them across chains by location. */
function isSameAsset(fee: ContractAsset | undefined, asset: TAssetInfo): boolean {
  if (!fee) return false;
  return sdk.isAssetXcEqual(fee as TAssetInfo, asset);
}

const big = (v: string | undefined): bigint => (v === undefined ? 0n : BigInt(v));

/** Rule 1's condition for `asset` on the origin: paid in the native asset, or in the feeAsset when one is given. */
function originFeeCounts(req: PreflightRequest, asset: TAssetInfo): boolean {
  const native = sdkCall(() => sdk.findNativeAssetInfoOrThrow(req.from));
  const feeAsset = req.feeAsset ? sdkCall(() => sdk.findAssetInfoOrThrow(req.from, req.feeAsset as TCurrencyCore, req.to)) : undefined;
  return originFeeCountsInAsset({
    hasFeeAsset: feeAsset !== undefined,
    assetIsOriginNative: sdk.isAssetEqual(native, asset),
    feeAssetIsQueriedAsset: feeAsset !== undefined && sdk.isAssetEqual(feeAsset, asset),
  });
}

/** Pre-flight queries (dry run, fees, transfer info, amounts) and balances over the connection pool. */
export class PreflightService {
  constructor(
    private readonly pool: ConnectionPool,
    private readonly config: Config,
  ) {}

  // Each query runs with the request's custom assets in the registry, its offline checks included.
  dryRun(req: PreflightRequest): Promise<DryRunResult> {
    return withRequestAssets(req.options, () => this.#dryRun(req));
  }

  dryRunPreview(req: PreflightRequest, mintFeeAssets: boolean): Promise<DryRunResult> {
    return withRequestAssets(req.options, () => this.#dryRunPreview(req, mintFeeAssets));
  }

  getXcmFee(req: PreflightRequest, disableFallback: boolean): Promise<XcmFeeResult> {
    return withRequestAssets(req.options, () => this.#getXcmFee(req, disableFallback));
  }

  getOriginXcmFee(req: PreflightRequest, disableFallback: boolean): Promise<OriginXcmFeeResult> {
    return withRequestAssets(req.options, () => this.#getOriginXcmFee(req, disableFallback));
  }

  getTransferInfo(req: PreflightRequest): Promise<TransferInfoResult> {
    return withRequestAssets(req.options, () => this.#getTransferInfo(req));
  }

  getTransferableAmount(req: PreflightRequest): Promise<string> {
    return withRequestAssets(req.options, () => this.#getTransferableAmount(req));
  }

  getMinTransferableAmount(req: PreflightRequest): Promise<string> {
    return withRequestAssets(req.options, () => this.#getMinTransferableAmount(req));
  }

  getReceivableAmount(req: PreflightRequest): Promise<string> {
    return withRequestAssets(req.options, () => this.#getReceivableAmount(req));
  }

  verifyEdOnDestination(req: PreflightRequest): Promise<boolean> {
    return withRequestAssets(req.options, () => this.#verifyEdOnDestination(req));
  }

  balance(req: BalanceRequest): Promise<string> {
    return withRequestAssets(req.options, () => this.#balance(req));
  }

  private run<T>(req: PreflightRequest, what: string, work: (builder: SenderBuilder, call: ChainCall) => Promise<T>): Promise<T> {
    return runOnChains(this.pool, this.config, req.options, `${what} ${req.from} -> ${req.to}`, (call) => {
      const builder: Builder = sdk.Builder({
        apiOverrides: call.apiOverrides as Record<string, ApiPromise>,
        abstractDecimals: req.options.abstractDecimals,
        xcmFormatCheck: req.options.xcmFormatCheck,
      });
      // The sender is required here; setting it last gives the builder the type its queries need.
      // One query builds each call and prices each transaction once (sdk/patches/query-memo.ts).
      return withQueryMemo(() => work(configure(builder, { ...req, sender: undefined }).senderAddress(req.sender), call));
    });
  }

  private translate(req: PreflightRequest) {
    return { origin: req.from, destination: req.to, resolveAsset: registryAssetResolver };
  }

  /** The recipient's balance of `destAsset` on the destination and the route's fees, over one set of connections. */
  private recipientBalanceAndFees(req: PreflightRequest, destAsset: TAssetInfo, what: string): Promise<{ balance: bigint; fees: XcmFeeResult; originDryRuns: boolean }> {
    return this.run(req, what, async (b, call) => {
      const [balance, raw, originDryRuns] = await Promise.all([
        balanceOf({ address: req.recipient, chain: req.to, currency: selectorOf(destAsset), apiOverrides: call.apiOverrides }),
        b.getXcmFee({ disableFallback: false }),
        runtimeDryRuns(call, req.from),
      ]);
      return { balance, fees: toXcmFeeResult(raw, this.translate(req)), originDryRuns };
    });
  }

  async #dryRun(req: PreflightRequest): Promise<DryRunResult> {
    checkBeforeDial(req, this.config);
    requireDryRun(req.from, 'A dry run');
    const r = await this.run(req, 'Dry-running', async (b, call) => {
      await requireRuntimeDryRun(call, req.from, 'A dry run');
      return b.dryRun();
    });
    return toDryRunResult(r, this.translate(req));
  }

  async #dryRunPreview(req: PreflightRequest, mintFeeAssets: boolean): Promise<DryRunResult> {
    checkBeforeDial(req, this.config);
    requireDryRun(req.from, 'A dry-run preview');
    const r = await this.run(req, 'Dry-running (preview)', async (b, call) => {
      await requireRuntimeDryRun(call, req.from, 'A dry-run preview');
      return b.dryRunPreview({ mintFeeAssets });
    });
    return toDryRunResult(r, this.translate(req));
  }

  async #getXcmFee(req: PreflightRequest, disableFallback: boolean): Promise<XcmFeeResult> {
    checkBeforeDial(req, this.config);
    return this.run(req, 'Pricing', async (b, call) => {
      const fees = toXcmFeeResult(await b.getXcmFee({ disableFallback }), this.translate(req));
      return markUnreachedDestination(fees, req.to, await unreached(call, req.from, fees.hops));
    });
  }

  async #getOriginXcmFee(req: PreflightRequest, disableFallback: boolean): Promise<OriginXcmFeeResult> {
    checkBeforeDial(req, this.config);
    const r = await this.run(req, 'Pricing the origin of', (b) => b.getOriginXcmFee({ disableFallback }));
    return toXcmFeeResult(r, { ...this.translate(req), originOnly: true });
  }

  async #getTransferInfo(req: PreflightRequest): Promise<TransferInfoResult> {
    checkBeforeDial(req, this.config);
    return this.run(req, 'Transfer info for', async (b, call) => {
      const info = toTransferInfoResult(await b.getTransferInfo(), { resolveAsset: registryAssetResolver });
      const why = await unreached(call, req.from, info.hops);
      if (why && info.destination) info.destination.xcmFee.dryRunError = { reason: why.reason };
      if (why?.origin && info.destination) markUnknownArrival(info.destination, why.reason);
      return info;
    });
  }

  /** Rule 1: max(balance - ED - originFee, 0), the fee counted only when paid in the queried asset. */
  async #getTransferableAmount(req: PreflightRequest): Promise<string> {
    oneCurrency(req);
    checkBeforeDial(req, this.config);
    const { core } = single(req);
    const asset = sdkCall(() => sdk.findAssetInfoOrThrow(req.from, core, null));
    const counts = originFeeCounts(req, asset);
    const result = await this.run(req, 'Transferable amount for', async (b, call) => {
      const balance = await balanceOf({ address: req.sender, chain: req.from, currency: core, apiOverrides: call.apiOverrides });
      // The fee is only needed when it counts; otherwise the origin is not priced at all.
      const fee = counts ? (await b.getOriginXcmFee({ disableFallback: false })).fee : 0n;
      // Unreachable with sdk-pjs SDK_VERSION (with fallback on the origin fee is a dry-run or payment-info bigint); kept for the type.
      if (fee === undefined) throw badRequest('UnableToComputeError', `No origin XCM fee could be computed on ${req.from}`);
      return transferableAmount({ balance, existentialDeposit: BigInt(asset.existentialDeposit ?? '0'), originFee: fee, feeCountsInAsset: counts });
    });
    return result.toString();
  }

  /** Rule 3: hop fees + destination fee + origin fee (each only in the transferred asset) + ED if the recipient holds none + 1. */
  async #getMinTransferableAmount(req: PreflightRequest): Promise<string> {
    oneCurrency(req);
    checkBeforeDial(req, this.config);
    requireDryRun(req.from, 'The minimal transferable amount');
    if (req.to !== 'Ethereum') requireDryRun(req.to, 'The minimal transferable amount');
    const { core } = single(req);
    const asset = sdkCall(() => sdk.findAssetInfoOrThrow(req.from, core, null));
    const destAsset = sdkCall(() => sdk.findAssetOnDestOrThrow(req.from, req.to, core));
    const paysInAsset = originFeeCounts(req, asset);
    const { balance: destBalance, fees, originDryRuns } = await this.recipientBalanceAndFees(req, destAsset, 'Minimal transferable amount for');
    if (!originDryRuns) throw badRequest('RuntimeApiUnavailableError', `The minimal transferable amount needs the dry-run runtime API, which ${req.from}'s runtime does not offer (it is older than the SDK's registry says)`);
    for (const hop of fees.hops) requireDryRun(hop.chain as TChain, `The minimal transferable amount (through ${hop.chain})`);
    const min = minTransferableAmount({
      hopFees: fees.hops.map((h) => ({ amount: big(h.result.fee), inTransferredAsset: isSameAsset(h.result.asset, asset) })),
      destinationFee: big(fees.destination?.fee),
      destinationFeeInAsset: isSameAsset(fees.destination?.asset, asset),
      originFee: big(fees.origin.fee),
      originFeeInAsset: paysInAsset && isSameAsset(fees.origin.asset, asset),
      destinationEd: BigInt(destAsset.existentialDeposit ?? '0'),
      recipientDestBalance: destBalance,
    });
    return min.toString();
  }

  /**
   * The SDK's figure (transfer info's received amount, what its getReceivableAmount returns);
   * the contract gives no formula but requires dry-run support on the destination and the hops.
   */
  async #getReceivableAmount(req: PreflightRequest): Promise<string> {
    checkBeforeDial(req, this.config);
    requireDryRun(req.to, 'The receivable amount');
    const info = await this.run(req, 'Receivable amount for', async (b, call) => {
      // Without it on the origin the SDK follows nothing and answers the whole amount.
      await requireRuntimeDryRun(call, req.from, 'The receivable amount');
      return b.getTransferInfo();
    });
    // The SDK stops following the XCM at a hop it cannot dry-run and prices the rest as free.
    for (const hop of info.hops ?? []) requireDryRun(hop.chain, `The receivable amount (through ${hop.chain})`);
    const received = info.destination.receivedCurrency.receivedAmount;
    if (received instanceof Error) throw badRequest('UnableToComputeError', `The amount received on ${req.to} cannot be computed: ${received.message}`);
    // The fees on the way would take more than is sent: nothing arrives (never a negative amount).
    if (BigInt(received) < 0n) throw badRequest('AmountTooLowError', `The amount does not cover the fees on the way to ${req.to}: they exceed it by ${(-BigInt(received)).toString()}`);
    return received.toString();
  }

  /** Rule 6: true if the recipient holds the asset, else amount - ED - destination fee > 0. */
  async #verifyEdOnDestination(req: PreflightRequest): Promise<boolean> {
    oneCurrency(req);
    checkBeforeDial(req, this.config);
    const { core, amount } = single(req);
    if (amount === 'ALL') throw badRequest('NumberFormatError', 'currency.amount must be the amount to verify, not ALL');
    const asset = sdkCall(() => sdk.findAssetInfoOrThrow(req.from, core, null));
    const destAsset = sdkCall(() => sdk.findAssetOnDestOrThrow(req.from, req.to, core));
    const destNative = sdkCall(() => sdk.findNativeAssetInfo(req.to));
    const base = req.options.abstractDecimals ? scaleAmount(amount, asset.decimals) : BigInt(amount);
    const { balance, fees, originDryRuns } = await this.recipientBalanceAndFees(req, destAsset, 'Verifying the existential deposit for');
    if (!originDryRuns) throw badRequest('UnableToComputeError', `No destination fee could be computed on ${req.to}: ${req.from}'s runtime offers no DryRunApi, so the SDK cannot follow the XCM to ${req.to}`);
    const blind = blindHop(fees.hops);
    if (blind) {
      throw badRequest('UnableToComputeError', `No destination fee could be computed on ${req.to}: the XCM passes ${blind}, which has no dry-run support, so the SDK cannot follow it to ${req.to}`);
    }
    const dest = fees.destination;
    // Unreachable with sdk-pjs SDK_VERSION (with fallback on it always prices the destination); kept for the type.
    if (dest?.fee === undefined) throw badRequest('UnableToComputeError', `No destination fee could be computed on ${req.to}`);
    return verifyEdOnDestination({
      recipientBalance: balance,
      amount: base,
      existentialDeposit: BigInt(destAsset.existentialDeposit ?? '0'),
      destinationFee: BigInt(dest.fee),
      feeType: dest.feeType,
      currencyIsDestinationNative: destNative !== null && sdk.isAssetXcEqual(destNative, destAsset),
      destination: req.to,
    });
  }

  async #balance(req: BalanceRequest): Promise<string> {
    if (req.chain === 'Ethereum') {
      const { address, currency, options } = req;
      return (await ethereumBalance({ address, currency, development: options.development, endpoints: options.ethereumRpc }, this.config, this.pool.guard)).toString();
    }
    if (req.currency && !resolveOnChain(req.chain, req.currency, null, { path: 'body.currency' })) {
      throw badRequest('InvalidCurrencyError', `currency ${JSON.stringify(req.currency)} is not an asset of ${req.chain} (GET /assets/${req.chain} lists them)`, [
        { path: 'body.currency', message: `is not an asset of ${req.chain}` },
      ]);
    }
    const amount = await runOnChains(this.pool, this.config, req.options, `Reading a balance on ${req.chain}`, (call) =>
      balanceOf({ address: req.address, chain: req.chain, currency: req.currency, apiOverrides: call.apiOverrides }),
    );
    return amount.toString();
  }

  bridgeStatus(): Promise<TBridgeStatus> {
    return runOnChains(this.pool, this.config, NO_OVERRIDES, 'Reading the Ethereum bridge status', async (call) =>
      sdk.getBridgeStatus((await call.apiOverrides['BridgeHubPolkadot']) as ApiPromise),
    );
  }
}

