// The decoded runtimes connections may share: one per chain and runtime version (genesis hash and
// spec version), taken from the registry's own connections (endpoints the operator or the SDK
// chose, which this service trusts to describe their runtime). A connection to an endpoint a client
// named, whose node runs a runtime shared here, costs its socket and a few MB, not a second decode
// (src/sdk/patches/shared-runtime.ts). A client's node never provides a runtime: one that lied about its
// metadata would otherwise decode every other client's reads.
import { runtimeKey, runtimeOf, type ApiPromise, type RuntimeVersionKey } from '../sdk';

export class SharedRuntimes {
  readonly #sources = new Map<string, ApiPromise>();

  /** Shares `api`'s runtime (a registry connection's) while it stays connected. */
  offer(api: ApiPromise): void {
    const key = runtimeKey(runtimeOf(api));
    this.#sources.set(key, api);
    api.once('disconnected', () => {
      if (this.#sources.get(key) === api) this.#sources.delete(key);
    });
  }

  /** A connected api whose runtime is `version` now (one that upgraded since it was offered is not). */
  sourceFor(version: RuntimeVersionKey): ApiPromise | undefined {
    const api = this.#sources.get(runtimeKey(version));
    if (!api?.isConnected) return undefined;
    const now = runtimeOf(api);
    return now.specName === version.specName && now.specVersion === version.specVersion ? api : undefined;
  }

  /** Whether any runtime is shared (when none is, a dial asks its node nothing more). */
  get empty(): boolean {
    return this.#sources.size === 0;
  }
}
