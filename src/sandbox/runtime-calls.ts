// The runtime calls a node answers (`state_call`): the metadata in every version it serves, the
// runtime version (which a runtime upgrade changes), and the answers its owner configured with
// `setRuntimeCall`, each encoded with the output type the chain's metadata declares for the call.
// Nothing here executes a runtime: an unconfigured call fails with -32000.
import { metadataV14Of, metadataV15Of, withSpecVersion } from './metadata-versions';
import { encodeCompact, hexU32, registryForChain, V15_PROJECTION, type ChainData, type RuntimeVersionJson, type SandboxChainName } from './chain-data';
import { RpcError } from './rpc-error';
import type { TypeRegistry as TypeRegistryClass } from '@polkadot/types';

/** A configured runtime call: gets the SCALE-encoded arguments, returns the value to encode. */
export type RuntimeAnswer = (args: Uint8Array, registry: TypeRegistryClass) => unknown;

export class RuntimeCalls {
  metadataRaw: Buffer;
  /** The v15 projection of v16 metadata (`V15_PROJECTION` chains), made when first asked for. */
  private metadataV15?: Buffer;
  /** The v14 projection, what `state_getMetadata` answers (made when first asked for). */
  private metadataV14?: Buffer;
  runtimeVersion: RuntimeVersionJson;
  readonly answers = new Map<string, RuntimeAnswer>();

  constructor(
    private readonly chain: SandboxChainName,
    private readonly data: ChainData,
    readonly partialFee: bigint | undefined,
    /** The next nonce of an account id (hex, as the runtime call's argument holds it). */
    private readonly nonceOf: (accountId: string) => number,
  ) {
    this.metadataRaw = Buffer.from(data.metadataHex.slice(2), 'hex');
    this.runtimeVersion = data.runtimeVersion;
  }

  serves(version: number): boolean {
    return version === 14 || version === this.data.metadataVersion || (version === 15 && V15_PROJECTION.has(this.chain));
  }

  /** The metadata served as `version`, if it is served. */
  metadataAt(version: number): Buffer | undefined {
    if (version === this.data.metadataVersion) return this.metadataRaw;
    if (!this.serves(version)) return undefined;
    if (version === 14) return (this.metadataV14 ??= Buffer.from(metadataV14Of(this.metadataRaw)));
    this.metadataV15 ??= Buffer.from(metadataV15Of(this.metadataRaw));
    return this.metadataV15;
  }

  setSpecVersion(specVersion: number): void {
    this.runtimeVersion = { ...this.runtimeVersion, specVersion };
    this.metadataRaw = Buffer.from(withSpecVersion(this.metadataRaw, specVersion));
    this.metadataV15 = undefined;
    this.metadataV14 = undefined;
  }

  /** Answers `state_call`. Throws RpcError. */
  call(fn: string, data: string): string {
    switch (fn) {
      case 'Metadata_metadata_versions': {
        // Vec<u32>: the version of the bytes we hold, and 14 (and 15) where projected from them.
        const versions = [...new Set([14, 15, this.data.metadataVersion])].filter((v) => this.serves(v));
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
