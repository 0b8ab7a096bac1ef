// The sandbox's transaction pool: what a node checks before it takes an extrinsic (it decodes with
// the chain's metadata, it is signed, its signature verifies over the payload the signer saw, its
// nonce is the account's next, its fee is payable). The pool's next nonce is what
// system_accountNextIndex and AccountNonceApi_account_nonce answer.
import { createRequire } from 'node:module';
import type { TypeRegistry } from '@polkadot/types';
import type { Extrinsic, RuntimeVersion } from '@polkadot/types/interfaces';
import { nativeOf } from './assets';
import type { SandboxChainName } from './chain-data';
import type { ChainNode } from './chain-node';
import { transactionFee } from './fee-model';
import type { Ledger } from './ledger';

const load = createRequire(__filename);
const util = load('@polkadot/util') as typeof import('@polkadot/util');
const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');

/**
 * Checks a submitted extrinsic as a node's transaction pool would (decodes with the chain's
 * metadata, signed, signature valid, nonce the account's next, the fee payable) and takes its
 * nonce. Throws (the node answers 1010 Invalid Transaction) otherwise.
 */
export function accept(chain: SandboxChainName, node: ChainNode, ledger: Ledger, hex: string): Extrinsic {
  const registry = node.registry;
  let extrinsic: Extrinsic;
  try {
    extrinsic = registry.createType('Extrinsic', hex);
  } catch (error) {
    throw new Error(`it does not decode with ${chain}'s metadata (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!extrinsic.isSigned) throw new Error('the sandbox takes signed extrinsics only');
  verifySignature(chain, node, registry, extrinsic);
  const signer = util.u8aToHex(crypto.decodeAddress(extrinsic.signer.toString()));
  const expected = nonces(node).get(signer) ?? 0;
  const nonce = extrinsic.nonce.toNumber();
  if (nonce < expected) throw new Error(`Transaction is outdated (nonce ${nonce}, the account's next is ${expected})`);
  if (nonce > expected) throw new Error(`Transaction will be valid in the future (nonce ${nonce}, the account's next is ${expected}); the sandbox keeps no future queue`);
  const fee = transactionFee(chain, extrinsic.encodedLength);
  if (ledger.balance(nativeOf(chain), signer).free < fee) throw new Error(`Inability to pay some fees (e.g. account balance too low): the fee is ${fee}`);
  nonces(node).set(signer, nonce + 1);
  node.setAccountNextIndex(signer, nonce + 1);
  return extrinsic;
}

const nonceTables = new WeakMap<ChainNode, Map<string, number>>();
function nonces(node: ChainNode): Map<string, number> {
  let table = nonceTables.get(node);
  if (!table) nonceTables.set(node, (table = new Map()));
  return table;
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
    if (!blockHash) throw new Error(`its era starts at block ${birth}, which ${chain} does not have`);
  }
  if (!signedOver(registry, node, extrinsic, genesisHash, blockHash)) throw new Error('Transaction has a bad signature');
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
