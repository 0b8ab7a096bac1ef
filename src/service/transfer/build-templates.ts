// Builds answered from what depends only on the route: a bounded memo of the SDK's answer per
// route shape (origin, destination, asset, options, address kinds, the origin's runtime), with the
// request's amount and accounts put into it (call-template.ts). A shape is learned the second time
// it is asked for: the request is built by the SDK, then two probes with other accounts and amounts
// (7 bytes, and 1: SCALE's widest and narrowest compacts); the template made from the first must
// reproduce all three builds byte for byte and argument for argument, and none of them may have read a chain (no RPC request, no chain but the origin), or
// the shape is always built by the SDK (amount-dependent logic, fees priced with chain state).
// A runtime upgrade gives the origin a new registry: its templates are no longer found.
import { randomBytes } from 'node:crypto';
import type { TCurrencyCore } from '@paraspell/sdk-pjs';
import { LRUCache } from 'lru-cache';
import { sdk, utilCrypto, type ApiPromise } from '../../sdk';
import { ss58Account } from '../../schemas/address';
import { scaleAmount } from '../../schemas/amount-scale';
import type { TransferRequest } from '../../schemas/transfer';
import { readCall } from '../route-check';
import { fill, makeTemplate, reproduces, type CallTemplate, type Sample, type Values } from './call-template';

/** A route shape's place in the memo. */
type Entry =
  | { kind: 'seen'; unsettled: number }
  | { kind: 'learning' }
  | { kind: 'never'; why: string }
  | { kind: 'template'; template: CallTemplate; decimals: number | null };

/** A request whose shape can be templated: its key, its values, and how to make probe values. */
export interface Shape {
  key: string;
  values: Values;
  /** Its amount as the request gives it, when the SDK scales it by the asset's decimals. */
  scaled: boolean;
  recipientKind: string;
  senderKind?: string;
}

/** What the transfer service does with a request. */
export type Plan = { answer: { hex: string; view: NonNullable<ReturnType<typeof readCall>> } } | { learn: Shape } | { build: true };

/** Counted since start: answers filled from templates, built by the SDK, shapes learned and refused. */
export interface TemplateCounts {
  filled: number;
  built: number;
  learned: number;
  refused: number;
}

/** Builds whose reads were disturbed (another request's RPC on the same connection) are tried this often. */
const UNSETTLED_TRIES = 3;

/** `ss58:<prefix>`, `hex32` or `hex20` with the account's bytes; null for what is not templated. */
function account(address: string): { kind: string; hex: string } | null {
  if (/^0x([0-9a-f]{40}|[0-9a-f]{64})$/.test(address)) return { kind: `hex${(address.length - 2) / 2}`, hex: address.slice(2) };
  if (address.startsWith('0x')) return null; // upper-case hex (EIP-55 checksums) is left to the SDK
  const ss58 = ss58Account(address);
  return ss58 && { kind: `ss58:${ss58.prefix}`, hex: ss58.hex };
}

/** An address of `kind` for `hex` bytes. */
function addressOf(kind: string, hex: string): string {
  return kind.startsWith('ss58:') ? utilCrypto.encodeAddress(Buffer.from(hex, 'hex'), Number(kind.slice(5))) : `0x${hex}`;
}

const registryIds = new WeakMap<object, number>();
let nextRegistryId = 0;
function registryId(api: ApiPromise): number {
  let id = registryIds.get(api.registry);
  if (id === undefined) registryIds.set(api.registry, (id = ++nextRegistryId));
  return id;
}

/** The shape of `req` on `api`'s runtime, or null when it is built by the SDK every time. */
export function shapeOf(req: TransferRequest, api: ApiPromise): Shape | null {
  const { currency, recipient, sender, options } = req;
  if (Array.isArray(currency) || currency.amount === 'ALL' || typeof recipient !== 'string' || options.customAssets !== undefined) return null;
  const to = account(recipient);
  const from = sender === undefined ? undefined : account(sender);
  if (!to || from === null) return null;
  const { amount, ...asset } = currency;
  const scaled = options.abstractDecimals;
  if (!scaled && amount.includes('.')) return null;
  const key = JSON.stringify([
    registryId(api),
    api.runtimeVersion.specVersion.toNumber(),
    req.from,
    req.to,
    asset,
    to.kind,
    from?.kind ?? null,
    req.ahAddress ?? null,
    req.feeAsset ?? null,
    req.xcmVersion ?? null,
    req.pallet ?? null,
    req.keepAlive ?? null,
    scaled,
    options.xcmFormatCheck,
  ]);
  return { key, values: { units: 0n, recipient: to.hex, ...(from ? { sender: from.hex } : {}) }, scaled, recipientKind: to.kind, ...(from ? { senderKind: from.kind } : {}) };
}

const units = (amount: string, decimals: number | null): bigint => (decimals === null ? BigInt(amount) : scaleAmount(amount, decimals));

/**
 * A request like `req` with random accounts and an amount of 7 bytes (with 3 decimal places when
 * scaled) or, `small`, one of a byte (2 to 63, the least the offline checks let through).
 */
function probe(req: TransferRequest, shape: Shape, small: boolean): TransferRequest {
  const recipient = randomBytes(shape.values.recipient.length / 2).toString('hex');
  const sender = shape.values.sender === undefined ? undefined : randomBytes(shape.values.sender.length / 2).toString('hex');
  const whole = small ? BigInt(2 + (randomBytes(1)[0]! % 62)) : BigInt(`0x${randomBytes(7).toString('hex')}`) | (1n << 52n);
  const amount = !shape.scaled || small ? whole.toString() : `${whole / 10n ** 12n}.${100 + (randomBytes(2).readUInt16BE() % 900)}`;
  return {
    ...req,
    currency: { ...(req.currency as Exclude<TransferRequest['currency'], unknown[]>), amount },
    recipient: addressOf(shape.recipientKind, recipient),
    ...(sender === undefined ? {} : { sender: addressOf(shape.senderKind!, sender) }),
  };
}

/** The values a request of a known shape brings. */
function valuesOf(req: TransferRequest, shape: Shape, decimals: number | null): Values {
  return { ...shape.values, units: units((req.currency as { amount: string }).amount, decimals) };
}

export class BuildTemplates {
  readonly #entries: LRUCache<string, Entry> | undefined;
  readonly #counts: TemplateCounts = { filled: 0, built: 0, learned: 0, refused: 0 };

  /** `max` shapes are kept (the least recently used go first); 0 turns templates off. */
  constructor(max: number) {
    this.#entries = max > 0 ? new LRUCache({ max }) : undefined;
  }

  counts(): TemplateCounts {
    return { ...this.#counts };
  }

  /** Answers `req` from its shape's template, or says whether to learn the shape or just build. */
  plan(req: TransferRequest, api: ApiPromise): Plan {
    const shape = this.#entries ? shapeOf(req, api) : null;
    const entry = shape ? this.#entries!.get(shape.key) : undefined;
    if (shape && entry?.kind === 'template') {
      this.#counts.filled++;
      return { answer: fill(entry.template, valuesOf(req, shape, entry.decimals)) };
    }
    this.#counts.built++;
    if (!shape || entry?.kind === 'never' || entry?.kind === 'learning') return { build: true };
    if (entry === undefined) {
      this.#entries!.set(shape.key, { kind: 'seen', unsettled: 0 });
      return { build: true };
    }
    return { learn: shape };
  }

  /**
   * Builds `req` with `build` (the SDK), then learns its shape: `chains()` lists the chains the
   * request's scope has borrowed. Answers `req`'s call data.
   */
  async learn(req: TransferRequest, shape: Shape, api: ApiPromise, chains: () => string[], build: (req: TransferRequest) => Promise<string>): Promise<string> {
    const entries = this.#entries!;
    const seen = entries.get(shape.key);
    const unsettled = seen?.kind === 'seen' ? seen.unsettled : 0;
    entries.set(shape.key, { kind: 'learning' });
    const reads = () => api.stats?.total.requests ?? Number.NaN;
    const before = reads();
    let hex: string;
    try {
      hex = await build(req);
    } catch (error) {
      entries.set(shape.key, { kind: 'seen', unsettled });
      throw error;
    }
    try {
      const probes = [probe(req, shape, false), probe(req, shape, true)];
      const built = [hex];
      for (const p of probes) built.push(await build(p));
      const touched = chains();
      if (touched.length !== 1 || touched[0] !== req.from) return this.#never(shape, `it reads ${touched.join(', ')}`, hex);
      if (reads() !== before) {
        // Another request may have used the connection meanwhile: try again later, a few times.
        if (unsettled + 1 < UNSETTLED_TRIES) entries.set(shape.key, { kind: 'seen', unsettled: unsettled + 1 });
        else this.#never(shape, 'its builds send requests to the chain', hex);
        return hex;
      }
      const decimals = shape.scaled ? (sdk.findAssetInfo(req.from, (({ amount: _a, ...core }) => core)(req.currency as { amount: string }) as TCurrencyCore, typeof req.to === 'string' ? req.to : null)?.decimals ?? null) : null;
      if (shape.scaled && decimals === null) return this.#never(shape, 'the asset has no decimals', hex);
      const samples: Sample[] = [];
      for (const [i, r] of [req, ...probes].entries()) {
        const view = readCall(api.registry, built[i]!);
        if (!view) return this.#never(shape, 'it is a batch or a proxy', hex);
        samples.push({ values: valuesOf(r, shapeOf(r, api)!, decimals), hex: built[i]!, view });
      }
      const template = makeTemplate(samples[1]!);
      if (!samples.every((s) => reproduces(template, s))) return this.#never(shape, 'its call data depends on more than the amount and the accounts', hex);
      entries.set(shape.key, { kind: 'template', template, decimals });
      this.#counts.learned++;
    } catch {
      // A probe the SDK refuses (its values out of some range): the shape is not learned.
      this.#never(shape, 'a probe failed', hex);
    }
    return hex;
  }

  #never(shape: Shape, why: string, hex: string): string {
    this.#entries!.set(shape.key, { kind: 'never', why });
    this.#counts.refused++;
    return hex;
  }
}
