import type { TCurrencyInputWithAmount, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { ApiError, badRequest } from '../../errors';
import { sdk, withQueryMemo, type ApiPromise } from '../../sdk';
import type { TransferRequest } from '../../schemas/transfer';
import { runOnChains, withRequestAssets, type ChainCall } from '../sdk-calls';
import { checkBeforeDial } from '../offline-checks';
import { applyKeepAlive } from './transfer-keep-alive';
import { BuildTemplates } from './build-templates';
import { buildTransact, type TransactPayload } from './transact';
import type { MetadataService, SignableCall } from '../metadata';
import type { RouteCheck, RouteExpectation } from '../route-check';

export type BatchMode = 'BATCH' | 'BATCH_ALL';

export interface BuildOptions {
  /** Answer `{callData, metadataHash, specVersion}` (RFC-0078, for hardware wallets) instead of the hex alone. */
  metadataHash?: boolean;
}

type Builder = ReturnType<typeof sdk.Builder>;

const describe = (req: TransferRequest): string =>
  `${req.from} -> ${typeof req.to === 'string' ? req.to : 'custom location'}`;

/** Runs a check of one batch item, reporting its failure at that item (`body.transfers.<i>...`). */
function inBatch(index: number, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const at = (path: string) => path.replace(/^body\./, `body.transfers.${index}.`);
    const details = error.details?.map((d) => ({ ...d, path: at(d.path) })) ?? [{ path: `body.transfers.${index}`, message: error.message }];
    throw new ApiError(error.status, error.kind, `transfers.${index}: ${error.message}`, details, error.headers, error.fields);
  }
}

/** Where the request says a transfer ends: what the route check compares the call's last deposit with. */
function expectation(req: TransferRequest): RouteExpectation {
  return { chain: typeof req.to === 'string' ? req.to : null, ...(typeof req.recipient === 'string' ? { recipient: req.recipient } : {}) };
}

/** The request as a refusal's log line shows it. */
const logged = (req: TransferRequest) => ({ from: req.from, to: req.to, currency: req.currency, recipient: req.recipient, ...(req.pallet ? { pallet: req.pallet } : {}) });

export function isLocal(req: TransferRequest): boolean {
  return req.from === req.to;
}

function newBuilder(req: TransferRequest, call: ChainCall): Builder {
  return sdk.Builder({
    apiOverrides: call.apiOverrides as Record<string, ApiPromise>,
    abstractDecimals: req.options.abstractDecimals,
    xcmFormatCheck: req.options.xcmFormatCheck,
  });
}

/** Applies one transfer's fields to a builder, in the order the SDK's types expect. */
export function configure(builder: Builder, req: TransferRequest) {
  let b = builder
    .from(req.from as TSubstrateChain) // checkBeforeDial refuses an Ethereum origin
    .to(req.to)
    .currency(req.currency as TCurrencyInputWithAmount)
    .address(req.recipient);
  if (req.sender !== undefined) b = b.senderAddress(req.sender);
  if (req.ahAddress !== undefined) b = b.ahAddress(req.ahAddress);
  if (req.feeAsset !== undefined) b = b.feeAsset(req.feeAsset);
  if (req.xcmVersion !== undefined) b = b.xcmVersion(sdk.Version[req.xcmVersion]);
  if (req.pallet !== undefined) b = b.customPallet(req.pallet.pallet, req.pallet.method);
  return b;
}

/** The SDK's call data for one transfer (a local one as keepAlive asks). */
async function buildHex(req: TransferRequest, call: ChainCall, api: ApiPromise): Promise<string> {
  const tx = await configure(newBuilder(req, call), req).build();
  return isLocal(req) ? applyKeepAlive(api, tx, req.keepAlive ?? true).method.toHex() : tx.method.toHex();
}

/**
 * Builds unsigned call data over pooled connections. The answer is the hex of the call data
 * (`tx.method.toHex()`, no extrinsic length or version byte): what polkadot-api's
 * `txFromCallData` and polkadot.js's `api.tx(api.createType('Call', hex))` decode.
 */
export class TransferService {
  /** Proven answers per route shape (build-templates.ts). */
  readonly templates: BuildTemplates;

  constructor(
    private readonly pool: ConnectionPool,
    private readonly config: Config,
    private readonly metadata: MetadataService,
    private readonly routes: RouteCheck,
  ) {
    this.templates = new BuildTemplates(config.BUILD_TEMPLATES);
  }

  build(req: TransferRequest & { transact?: TransactPayload }, options: BuildOptions = {}): Promise<string | SignableCall> {
    return withRequestAssets(req.options, () => this.#build(req, options));
  }

  /** One batch call from several transfers that share an origin. */
  buildBatch(transfers: TransferRequest[], mode: BatchMode, options: TransferRequest['options'], build: BuildOptions = {}): Promise<string | SignableCall> {
    return withRequestAssets(options, () => this.#buildBatch(transfers, mode, options, build));
  }

  async #build(req: TransferRequest & { transact?: TransactPayload }, { metadataHash = false }: BuildOptions): Promise<string | SignableCall> {
    checkBeforeDial(req, this.config);
    const build = (): Promise<string> => {
      if (req.transact !== undefined) {
        return buildTransact(this.pool, this.config, req, (registry, hex) => this.routes.check(registry, req.from as TSubstrateChain, hex, [{ chain: expectation(req).chain }], logged(req)));
      }
      return runOnChains(this.pool, this.config, req.options, `Building ${describe(req)}`, async (call) => {
        const api = (await call.apiOverrides[req.from]) as ApiPromise;
        const origin = req.from as TSubstrateChain;
        const plan = this.templates.plan(req, api);
        if ('answer' in plan) return this.routes.checkView(origin, plan.answer.view, plan.answer.hex, [expectation(req)], logged(req));
        // One build asks each runtime call and storage read once (sdk/patches/query-memo.ts).
        const sdkBuild = (r: TransferRequest) => withQueryMemo(() => buildHex(r, call, api));
        const hex = 'learn' in plan ? await this.templates.learn(req, plan.learn, api, call.chains, sdkBuild) : await sdkBuild(req);
        return this.routes.check(api.registry, origin, hex, [expectation(req)], logged(req));
      });
    };
    return metadataHash ? this.metadata.signable(req.from, req.options, build) : build();
  }

  async #buildBatch(transfers: TransferRequest[], mode: BatchMode, options: TransferRequest['options'], { metadataHash = false }: BuildOptions): Promise<string | SignableCall> {
    const origins = new Set(transfers.map((t) => t.from));
    if (transfers.length === 0) throw badRequest('BatchValidationError', 'transfers must list at least one transfer');
    if (origins.size > 1) throw badRequest('BatchValidationError', `All transfers in a batch start on one chain; got ${[...origins].join(', ')}`);
    if (transfers.some((t) => isLocal(t) && t.keepAlive !== undefined)) {
      throw badRequest('BatchValidationError', 'keepAlive is not supported inside a batch');
    }
    transfers.forEach((t, i) => inBatch(i, () => checkBeforeDial({ ...t, options }, this.config)));
    const first = { ...transfers[0], options };
    const build = () =>
      runOnChains(this.pool, this.config, options, `Building a batch from ${first.from}`, async (call) => {
        // addToBatch() hands back the same builder, holding the batch so far.
        let builder = newBuilder(first, call);
        let batched: ReturnType<ReturnType<typeof configure>['addToBatch']> | undefined;
        for (const transfer of transfers) {
          batched = configure(builder, { ...transfer, options }).addToBatch();
          builder = batched as unknown as Builder;
        }
        const tx = await batched!.buildBatch({ mode: sdk.BatchMode[mode] });
        const api = (await call.apiOverrides[first.from]) as ApiPromise;
        return this.routes.check(api.registry, first.from as TSubstrateChain, tx.method.toHex(), transfers.map(expectation), transfers.map(logged));
      });
    return metadataHash ? this.metadata.signable(first.from, options, build) : build();
  }
}
