// The sandbox's transaction pool, one per chain: what a node checks before it takes an extrinsic
// (it decodes with the chain's metadata, it is signed, its signature verifies over the payload the
// signer saw, its nonce is the account's next, its fee is payable), what it holds until the next
// block, and the runtime's validity answer (`TaggedTransactionQueue_validate_transaction`, which
// polkadot-api asks before and after it broadcasts). An account's next nonce counts what the pool
// holds: `system_accountNextIndex`, `AccountNonceApi_account_nonce` and `System.Account` at the
// head answer it, so a client that reads any of them signs the next one. A refused transaction is
// remembered, and its validity answers why, so a client that broadcast it (transaction_v1, which
// reports nothing) hears of it at the next block instead of waiting for ever.
import { crypto, util } from './polkadot-libs';
import type { TypeRegistry } from '@polkadot/types';
import type { Extrinsic, RuntimeVersion } from '@polkadot/types/interfaces';
import { nativeOf } from './assets';
import type { SandboxChainName } from './chain-data';
import type { ChainNode } from './chain-node';
import { transactionFee } from './fee-model';
import type { Ledger } from './ledger';

/** Why a transaction is invalid, as `InvalidTransaction` names it. */
type InvalidKind = 'Call' | 'Payment' | 'Future' | 'Stale' | 'BadProof' | 'AncientBirthBlock';

/** A transaction the pool or the runtime refuses: the node answers 1010 with its message. */
class Refusal extends Error {
  constructor(
    readonly kind: InvalidKind,
    message: string,
  ) {
    super(message);
  }
}

export interface Pending {
  hex: `0x${string}`;
  hash: `0x${string}`;
  extrinsic: Extrinsic;
}

/** Refused transactions remembered (the oldest forgotten first). */
const REFUSALS_KEPT = 1_024;
/** Blocks whose signers are remembered, to answer validity at one of them (a real chain's BlockHashCount is 4,096; clients ask at the newest few). */
const BLOCKS_KEPT = 256;

export class Pool {
  #pending: Pending[] = [];
  readonly #refused = new Map<string, InvalidKind>();
  /** The signers of each recent block's extrinsics, newest last. */
  readonly #recent: { block: number; signers: string[] }[] = [];

  constructor(
    private readonly chain: SandboxChainName,
    private readonly node: ChainNode,
    private readonly ledger: Ledger,
  ) {}

  /** Takes a submitted extrinsic, or throws why not (and remembers it). */
  submit(hex: `0x${string}`, hash: `0x${string}`): void {
    try {
      const { extrinsic, signer, nonce } = this.#check(hex);
      const expected = this.ledger.nonce(signer);
      if (nonce < expected) throw new Refusal('Stale', `Transaction is outdated (nonce ${nonce}, the account's next is ${expected})`);
      if (nonce > expected) throw new Refusal('Future', `Transaction will be valid in the future (nonce ${nonce}, the account's next is ${expected}); the sandbox keeps no future queue`);
      this.#pending.push({ hex, hash, extrinsic });
      this.#refused.delete(hash);
      // The head's System.Account counts it at once (storage subscribers hear of it), as do the nonce calls.
      this.ledger.setNonce(signer, nonce + 1);
      this.ledger.flush(this.node);
      this.node.setAccountNextIndex(signer, nonce + 1);
    } catch (error) {
      this.#refused.set(hash, error instanceof Refusal ? error.kind : 'Call');
      if (this.#refused.size > REFUSALS_KEPT) this.#refused.delete(this.#refused.keys().next().value!);
      throw error;
    }
  }

  /** What the next block includes, in the order it came. */
  take(): Pending[] {
    const taken = this.#pending.splice(0);
    this.#recent.push({ block: this.node.head() + 1, signers: taken.map((p) => this.#signerOf(p.extrinsic)) });
    if (this.#recent.length > BLOCKS_KEPT) this.#recent.shift();
    return taken;
  }

  /**
   * `TaggedTransactionQueue_validate_transaction(source, tx, block_hash)`, as the runtime answers
   * it against the state at that block: an outdated nonce is Stale, a later one than the account's
   * is valid and requires the one before it; a transaction the pool refused answers why.
   */
  validity(args: Uint8Array): unknown {
    const tx = util.u8aToHex(args.subarray(1, args.length - 32));
    const at = this.#numberOf(util.u8aToHex(args.subarray(args.length - 32)));
    try {
      const refused = this.#refused.get(crypto.blake2AsHex(util.hexToU8a(tx), 256));
      if (refused) throw new Refusal(refused, 'refused by the pool');
      const { signer, nonce } = this.#check(tx);
      // The account's nonce counts the pool and every block: what was after `at` is taken off.
      const held = this.#pending.filter((p) => this.#signerOf(p.extrinsic) === signer).length;
      const later = this.#recent.filter((r) => r.block > at).reduce((n, r) => n + r.signers.filter((s) => s === signer).length, 0);
      const included = this.ledger.nonce(signer) - held - later;
      if (nonce < included) throw new Refusal('Stale', 'outdated');
      const tag = (n: number) => util.u8aToHex(util.u8aConcat(util.hexToU8a(signer), util.bnToU8a(n, { bitLength: 32, isLe: true })));
      return { Ok: { priority: 0, requires: nonce > included ? [tag(nonce - 1)] : [], provides: [tag(nonce)], longevity: 2n ** 64n - 1n, propagate: true } };
    } catch (error) {
      if (error instanceof Refusal) return { Err: { Invalid: error.kind } };
      throw error;
    }
  }

  /** A recent block's number (the head's when it is not one of them). */
  #numberOf(hash: string): number {
    const head = this.node.head();
    for (let n = head; n > head - BLOCKS_KEPT && n >= 0; n--) if (this.node.blockHash(n) === hash) return n;
    return head;
  }

  #signerOf(extrinsic: Extrinsic): string {
    return util.u8aToHex(crypto.decodeAddress(extrinsic.signer.toString()));
  }

  /** The checks that need no nonce order: decodes, signed, signature, fee payable. */
  #check(hex: string): { extrinsic: Extrinsic; signer: string; nonce: number } {
    const registry = this.node.registry;
    let extrinsic: Extrinsic;
    try {
      extrinsic = registry.createType('Extrinsic', hex);
    } catch (error) {
      throw new Refusal('Call', `it does not decode with ${this.chain}'s metadata (${error instanceof Error ? error.message : String(error)})`);
    }
    if (!extrinsic.isSigned) throw new Refusal('Call', 'the sandbox takes signed extrinsics only');
    verifySignature(this.chain, this.node, registry, extrinsic);
    const signer = this.#signerOf(extrinsic);
    const fee = transactionFee(this.chain, extrinsic.encodedLength);
    if (this.ledger.balance(nativeOf(this.chain), signer).free < fee) throw new Refusal('Payment', `Inability to pay some fees (e.g. account balance too low): the fee is ${fee}`);
    return { extrinsic, signer, nonce: extrinsic.nonce.toNumber() };
  }
}

/** The signature must verify over the payload the signer saw (the checkpoint block of its era included). */
function verifySignature(chain: SandboxChainName, node: ChainNode, registry: TypeRegistry, extrinsic: Extrinsic): void {
  if (chain === 'Moonbeam') return; // Ethereum signatures over AccountKey20: not checked here.
  const era = extrinsic.era;
  const genesisHash = node.blockHash(0)!;
  let blockHash = genesisHash;
  if (era.isMortalEra) {
    const birth = era.asMortalEra.birth(node.head());
    blockHash = node.blockHash(birth) ?? '';
    if (!blockHash) throw new Refusal('AncientBirthBlock', `its era starts at block ${birth}, which ${chain} does not have`);
  }
  if (!signedOver(registry, node, extrinsic, genesisHash, blockHash)) throw new Refusal('BadProof', 'Transaction has a bad signature');
}
/** Whether the extrinsic's signature is over the payload with these genesis and era block hashes. */
function signedOver(registry: TypeRegistry, node: ChainNode, extrinsic: Extrinsic, genesisHash: string, blockHash: string): boolean {
  const version = node.runtimeVersion;
  const payload = registry.createType(
    'ExtrinsicPayload',
    {
      method: extrinsic.method.toHex(),
      era: extrinsic.era,
      nonce: extrinsic.nonce,
      tip: extrinsic.tip,
      assetId: extrinsic.assetId,
      mode: extrinsic.mode,
      metadataHash: null,
      specVersion: version.specVersion,
      transactionVersion: (registry.createType('RuntimeVersion', version) as unknown as RuntimeVersion).transactionVersion,
      genesisHash,
      blockHash,
      version: extrinsic.version & 0x7f,
    },
    { version: extrinsic.version & 0x7f },
  );
  const bytes = payload.toU8a({ method: true });
  const message = bytes.length > 256 ? crypto.blake2AsU8a(bytes, 256) : bytes;
  return crypto.signatureVerify(message, extrinsic.signature.toU8a(), extrinsic.signer.toString()).isValid;
}
