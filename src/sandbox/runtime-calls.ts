// The runtime calls a node answers (`state_call`): the metadata in every version it serves, the
// runtime version (which a runtime upgrade changes), and the answers its owner configured with
// `setRuntimeCall`, each encoded with the output type the chain's metadata declares for the call.
// Nothing here executes a runtime: an unconfigured call fails with -32000.
import { crypto } from './polkadot-libs';
import { metadataV14Of, metadataV15Of, metadataV16Of, withSpecVersion } from './metadata-versions';
import { encodeCompact, hexU32, registryForChain, type ChainData, type RuntimeVersionJson, type SandboxChainName } from './chain-data';
import { RpcError } from './rpc-error';
import type { TypeRegistry as TypeRegistryClass } from '@polkadot/types';

/** The metadata versions a node can serve; 14 is what `state_getMetadata` answers, so always served. */
export type MetadataVersion = 14 | 15 | 16;
const METADATA_VERSIONS: readonly MetadataVersion[] = [14, 15, 16];

/** A configured runtime call: gets the SCALE-encoded arguments, returns the value to encode. */
export type RuntimeAnswer = (args: Uint8Array, registry: TypeRegistryClass) => unknown;

/**
 * Projections of a chain's own metadata (as chainData holds it), shared by every node started on
 * it: tests start fresh nodes, and a projection costs CPU (Polkadot's v16, about 0.3 s).
 */
const PROJECTIONS = new WeakMap<ChainData, Map<number, Buffer>>();

export class RuntimeCalls {
  metadataRaw: Buffer;
  /** The other versions served, projected from `metadataRaw` when first asked for (14 for `state_getMetadata`). */
  private projected: Map<number, Buffer>;
  runtimeVersion: RuntimeVersionJson;
  readonly answers = new Map<string, RuntimeAnswer>();

  constructor(
    private readonly chain: SandboxChainName,
    private readonly data: ChainData,
    readonly partialFee: bigint | undefined,
    /** The next nonce of an account id (hex, as the runtime call's argument holds it). */
    private readonly nonceOf: (accountId: string) => number,
    /**
     * The versions served, as a real node serves them: 14, 15 and 16, the two we do not hold
     * projected from the one we do (metadata-versions.ts). Fewer only where a test asks for it.
     */
    readonly versions: readonly MetadataVersion[] = METADATA_VERSIONS,
  ) {
    if (!versions.includes(14)) throw new Error('sandbox: a node serves metadata v14 (state_getMetadata answers it)');
    this.metadataRaw = Buffer.from(data.metadataHex.slice(2), 'hex');
    this.runtimeVersion = data.runtimeVersion;
    let shared = PROJECTIONS.get(data);
    if (!shared) PROJECTIONS.set(data, (shared = new Map()));
    this.projected = shared;
  }

  /** The metadata served as `version`, if it is served. */
  metadataAt(version: number): Buffer | undefined {
    if (!this.versions.includes(version as MetadataVersion)) return undefined;
    if (version === this.data.metadataVersion) return this.metadataRaw;
    let bytes = this.projected.get(version);
    if (!bytes) {
      bytes = Buffer.from(version === 14 ? metadataV14Of(this.metadataRaw) : version === 15 ? metadataV15Of(this.metadataRaw) : metadataV16Of(this.metadataRaw, (name) => this.apiVersion(name)));
      this.projected.set(version, bytes);
    }
    return bytes;
  }

  /** A runtime API's version, as the runtime version lists it (by the blake2-64 of its name). */
  private apiVersion(name: string): number {
    const id = crypto.blake2AsHex(name, 64);
    const listed = this.runtimeVersion.apis.find(([apiId]) => apiId === id);
    if (!listed) throw new Error(`sandbox: ${this.chain}'s runtime version does not list runtime API ${name}`);
    return listed[1];
  }

  setSpecVersion(specVersion: number): void {
    this.runtimeVersion = { ...this.runtimeVersion, specVersion };
    this.metadataRaw = Buffer.from(withSpecVersion(this.metadataRaw, specVersion));
    // Metadata of this node's own from now on: its projections are its own too.
    this.projected = new Map();
  }

  /** Answers `state_call`. Throws RpcError. */
  call(fn: string, data: string): string {
    switch (fn) {
      case 'Metadata_metadata_versions': {
        const { versions } = this;
        return `0x${encodeCompact(versions.length).toString('hex')}${versions.map(hexU32).join('')}`;
      }
      case 'Metadata_metadata_at_version': {
        const asked = Buffer.from(data.replace(/^0x/, ''), 'hex');
        const metadata = asked.length < 4 ? undefined : this.metadataAt(asked.readUInt32LE(0));
        if (!metadata) return '0x00'; // None
        // Option<OpaqueMetadata>: Some + compact length + bytes
        return `0x01${encodeCompact(metadata.length).toString('hex')}${metadata.toString('hex')}`;
      }
      case 'Metadata_metadata': {
        const v14 = this.metadataAt(14)!;
        return `0x${encodeCompact(v14.length).toString('hex')}${v14.toString('hex')}`;
      }
      case 'AccountNonceApi_account_nonce':
        // The account id's bytes are the whole argument (32 bytes, or 20 on Moonbeam).
        return `0x${hexU32(this.nonceOf(data.toLowerCase()))}`;
    }
    const answer = this.answers.get(fn);
    if (answer) return this.encodeRuntimeAnswer(fn, answer, data);
    if (fn === 'TransactionPaymentApi_query_info' && this.partialFee !== undefined) return this.encodeQueryInfo();
    throw new RpcError(-32000, `Client error: test-chain cannot execute runtime call ${fn}`);
  }

  queryInfo(): { weight: { refTime: number; proofSize: number }; class: string; partialFee: bigint } {
    return { weight: { refTime: 200_000_000, proofSize: 4_000 }, class: 'Normal', partialFee: this.partialFee ?? 0n };
  }

  /** RuntimeDispatchInfo encoded with the output type the metadata declares for query_info. */
  private encodeQueryInfo(): string {
    return this.encodeOutput('TransactionPaymentApi_query_info', this.queryInfo());
  }

  private encodeRuntimeAnswer(fn: string, answer: RuntimeAnswer, data: string): string {
    const registry = registryForChain(this.chain, this.data.metadataHex);
    let value: unknown;
    try {
      value = answer(Buffer.from(data.replace(/^0x/, ''), 'hex'), registry);
    } catch (error) {
      throw new RpcError(-32000, `Client error: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.encodeOutput(fn, value);
  }

  /** `value` encoded with the output type the metadata declares for runtime call `fn` (`Api_method`). */
  private encodeOutput(fn: string, value: unknown): string {
    const registry = registryForChain(this.chain, this.data.metadataHex);
    const split = fn.indexOf('_');
    const apiName = fn.slice(0, split);
    const methodName = fn.slice(split + 1);
    const api = registry.metadata.apis.find((a) => a.name.eq(apiName));
    const method = api?.methods.find((m) => m.name.eq(methodName));
    if (!method) throw new RpcError(-32000, `Client error: no runtime call ${fn} in metadata`);
    // toU8a, not toHex: an Option's toHex() leaves out its Some byte.
    const encoded = registry.createType(registry.createLookupType(method.output), value).toU8a();
    return `0x${Buffer.from(encoded).toString('hex')}`;
  }
}
