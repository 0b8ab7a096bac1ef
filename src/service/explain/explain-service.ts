// Explains call data before it is signed: what the call is, what value it moves where, the XCM
// program it sends or implies, and the facts a signer must see. Metadata comes over the pool;
// everything else from the registry.
import type { TChain } from '@paraspell/sdk-pjs';
import type { Config } from '../../config';
import { badRequest } from '../../errors';
import type { ConnectionPool } from '../../chains/pool';
import { nextTurn } from '../../chains/turns';
import type { ApiPromise } from '../../sdk';
import { sdk, utilCrypto } from '../../sdk';
import type { ExplainRequest } from '../../schemas/explain';
import { listedAsset, routeOf } from '../route-check';
import { runOnChains } from '../sdk-calls';
import { decodeCallData, hexBytes, viewCall } from './call-decoder';
import { isBatch, readCall } from './call-reader';
import { innerCalls } from './nested-calls';
import { needsMetadata, readEvmTransaction, parseEvmTransaction, requireEvmTransaction } from './evm-reader';
import type { CallReading, Explanation, TransferView, Warning } from './views';
import { decodeTransacts } from './transact-calls';

const warn = (code: string, severity: Warning['severity'], message: string): Warning => ({ code, severity, message });

const SOVEREIGN_TAGS: Record<string, string> = { '70617261': 'child', '7369626c': 'sibling' }; // 'para', 'sibl'

/** The chain whose sovereign account `address` is, when it is one ('para'/'sibl' + para id + zeros). */
function sovereignOf(address: string, ecosystem: TChain): string | null {
  let id: Uint8Array;
  try {
    id = utilCrypto.decodeAddress(address);
  } catch {
    return null;
  }
  if (id.length !== 32 || id.subarray(8).some((b) => b !== 0)) return null;
  const tag = SOVEREIGN_TAGS[Buffer.from(id.subarray(0, 4)).toString('hex')];
  if (!tag) return null;
  const paraId = Buffer.from(id.subarray(4, 8)).readUInt32LE(0);
  const relay = ecosystem === 'Ethereum' ? 'Polkadot' : sdk.getRelayChainOf(ecosystem as Exclude<TChain, 'Ethereum'>);
  return `${sdk.getTChain(paraId, relay) ?? `parachain ${paraId}`} (${tag} sovereign account)`;
}

const sameAccount = (a: string, b: string): boolean => {
  try {
    return Buffer.from(utilCrypto.decodeAddress(a)).equals(Buffer.from(utilCrypto.decodeAddress(b)));
  } catch {
    return a.toLowerCase() === b.toLowerCase();
  }
};

/** The asset's existential deposit on `chain`, found by the registry location the asset was matched with. */
function existentialDeposit(chain: string, asset: TransferView['assets'][number]): bigint | null {
  if (asset.symbol === null || chain === 'unknown') return null;
  const ed = listedAsset(chain as TChain, asset.location)?.existentialDeposit;
  return ed ? BigInt(ed) : null;
}

/** Facts read from the transfers and the program alone. */
function warningsFor(chain: TChain, reading: CallReading, sender: string | undefined): Warning[] {
  const warnings: Warning[] = [];
  for (const id of reading.unknown) warnings.push(warn('UnknownCall', 'caution', `${id} is not a call this explanation reads; only its generic view is shown`));
  for (const t of reading.transfers) {
    if (t.destination === 'unknown') warnings.push(warn('UnknownDestination', 'danger', `No registry chain matches the destination ${JSON.stringify(t.destinationLocation)}`));
    if (typeof t.beneficiary !== 'string') {
      warnings.push(warn('BeneficiaryNotAnAccount', 'danger', `The beneficiary is not one account: ${JSON.stringify(t.beneficiary.location)}`));
    } else {
      const sovereign = sovereignOf(t.beneficiary, chain);
      if (sovereign) warnings.push(warn('SovereignAccountBeneficiary', 'danger', `The beneficiary ${t.beneficiary} is the sovereign account of ${sovereign}, not a person's account`));
      if (t.kind === 'local' && sender && !sameAccount(sender, t.beneficiary)) {
        warnings.push(warn('BeneficiaryDiffersFromSender', 'info', `The beneficiary ${t.beneficiary} is not the sender (normal for a payment to someone else)`));
      }
    }
    t.assets.forEach((asset) => {
      if (asset.symbol === null) warnings.push(warn('UnknownAsset', 'caution', `The registry does not know the asset at ${JSON.stringify(asset.location)}`));
      const ed = existentialDeposit(t.destination, asset);
      if (ed !== null && asset.amount !== 'ALL' && BigInt(asset.amount) < ed) {
        warnings.push(warn('BelowExistentialDeposit', 'danger', `${asset.amount} base units of ${asset.symbol} is below ${t.destination}'s existential deposit of ${ed}: a new account would not be created and the funds may be lost`));
      }
    });
    if (t.kind === 'local' && t.keepAlive === false && t.assets.some((a) => a.amount === 'ALL')) {
      warnings.push(warn('AccountMayBeReaped', 'caution', 'keepAlive is off and the whole balance is sent: the sender account will be removed'));
    }
    if (t.feeLimit === 'unlimited' && t.kind !== 'local') warnings.push(warn('UnlimitedWeight', 'info', 'The destination may use as much weight as it needs to execute (the fee asset bounds what is paid)'));
  }
  for (const step of reading.xcm) {
    if (step.transact?.originKind === 'Superuser') warnings.push(warn('TransactAsSuperUser', 'danger', `A call is dispatched on ${step.chain} with SuperUser (root) origin`));
    if (step.instruction === 'BuyExecution' && /no weight limit/.test(step.text) && !reading.transfers.length) {
      warnings.push(warn('UnlimitedWeight', 'info', `Execution on ${step.chain} has no weight limit`));
    }
  }
  return distinctWarnings(warnings);
}

/** Warnings listed per answer (a real call has a handful; call data naming many assets has one per asset and transfer). */
export const MAX_WARNINGS = 50;

/** Each warning once, at most MAX_WARNINGS; a last one counts those left out. */
function distinctWarnings(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  const kept: Warning[] = [];
  let left = 0;
  for (const w of warnings) {
    const key = `${w.code}\0${w.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (kept.length < MAX_WARNINGS) kept.push(w);
    else left++;
  }
  if (left > 0) kept.push(warn('MoreWarnings', 'caution', `${left} more warnings are not listed (MAX_WARNINGS: ${MAX_WARNINGS} are)`));
  return kept;
}

/** The largest explanation answered: call data inside XCM's bounds still lists up to 100 instructions and 20 assets a list per message, a batch several messages. */
export const MAX_EXPLAIN_BYTES = 256 * 1024;

/** Refuses (400) an explanation larger than MAX_EXPLAIN_BYTES: only call data written to cost gets there. */
function bounded(explanation: Explanation): Explanation {
  const bytes = Buffer.byteLength(JSON.stringify(explanation));
  if (bytes <= MAX_EXPLAIN_BYTES) return explanation;
  const why = `its explanation takes ${bytes} bytes, more than the ${MAX_EXPLAIN_BYTES} answered (MAX_EXPLAIN_BYTES)`;
  throw badRequest('ExplanationTooLargeError', `hex is too large to explain: ${why}`, [{ path: 'body.hex', message: why }]);
}

export class ExplainService {
  constructor(
    private readonly pool: ConnectionPool,
    private readonly config: Config,
  ) {}

  async explain(req: ExplainRequest): Promise<Explanation> {
    const evmChain = req.chain === 'Ethereum' || sdk.isChainEvm(req.chain);
    const evmTx = evmChain ? (req.chain === 'Ethereum' ? requireEvmTransaction(req.hex) : parseEvmTransaction(req.hex)) : null;
    if (evmTx && !needsMetadata(req.chain, evmTx)) return { chain: req.chain, ...readEvmTransaction(req.chain, evmTx) };
    if (evmTx) {
      // The XCM program inside is SCALE: the chain's own metadata reads it, as for call data.
      return runOnChains(this.pool, this.config, req.options, `Explaining an XCM-interface call on ${req.chain}`, async (call) => {
        const api = (await call.apiOverrides[req.chain]) as ApiPromise;
        return { chain: req.chain, ...readEvmTransaction(req.chain, evmTx, api.registry) };
      });
    }
    return runOnChains(this.pool, this.config, req.options, `Explaining call data on ${req.chain}`, async (call) => {
      const api = (await call.apiOverrides[req.chain]) as ApiPromise;
      // Call data at the bounds takes tens of ms to read: in slices, each in a turn of its own (one
      // slice per turn, the clients waiting taking turns: turns.ts), so that other clients'
      // requests are read in between. The decode too: requests whose bodies arrive together
      // would otherwise decode back to back in the turn that read them.
      await nextTurn();
      // Its XCM held to the bounds of xcm-bounds.ts by the scan before it is decoded: past them, a 400 from the scan alone.
      const decoded = decodeCallData(api.registry, hexBytes(req.hex), true);
      await nextTurn();
      const reading: CallReading = { transfers: [], xcm: [], unknown: [] };
      // A batch's calls one per turn (readCall reads a batch as its calls in order).
      for (const part of isBatch(decoded.call) ? innerCalls(decoded.call) : [decoded.call]) {
        readCall(req.chain, part, reading);
        await nextTurn();
      }
      const route = routeOf(req.chain, decoded.call);
      await nextTurn();
      const undecoded = await decodeTransacts(req.chain, reading.xcm, call, new Set(route.map((hop) => hop.chain)));
      const warnings = warningsFor(req.chain, reading, req.sender);
      if (decoded.wasExtrinsic) warnings.unshift(warn('ExtrinsicNotCallData', 'caution', 'hex is a whole unsigned extrinsic, not call data; its call is explained'));
      warnings.push(...undecoded);
      await this.checkReaping(api, req, reading.transfers, warnings);
      const view = viewCall(decoded.call);
      await nextTurn();
      const explanation = bounded({ chain: req.chain, call: view, transfers: reading.transfers, xcm: reading.xcm, route, warnings });
      await nextTurn();
      return explanation;
    });
  }

  /** With the sender known, a native local transfer that would take it below its ED without keepAlive. */
  private async checkReaping(api: ApiPromise, req: ExplainRequest, transfers: TransferView[], warnings: Warning[]): Promise<void> {
    if (!req.sender) return;
    const local = transfers.filter((t) => t.kind === 'local' && t.keepAlive === false && t.assets[0]?.amount !== 'ALL');
    if (local.length === 0) return;
    const native = sdk.findNativeAssetInfo(req.chain);
    const account = (await api.query.system.account(req.sender)) as unknown as { data: { free: { toBigInt(): bigint } } };
    const free = account.data.free.toBigInt();
    const ed = BigInt(native?.existentialDeposit ?? 0);
    for (const t of local) {
      const asset = t.assets[0]!;
      if (asset.symbol === native?.symbol && free - BigInt(asset.amount) < ed) {
        warnings.push(warn('AccountMayBeReaped', 'caution', `keepAlive is off and sending ${asset.amount} leaves the sender below the existential deposit (${ed}): the account will be removed`));
      }
    }
  }
}
