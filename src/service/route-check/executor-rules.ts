// The executor's own rules, as polkadot-sdk's xcm-executor applies them (lib.rs): who the program
// runs as (ClearOrigin, DescendOrigin, AliasOrigin and what needs an origin), the instructions that
// stop a program (Trap, the Expect family), BurnAsset, what stays in the holding at the end (trapped:
// AssetsTrapped), and the barrier of a message that arrives (barrier.ts). What the walk does not model
// is said in a warning: a hop is never ok by silence.
import type { TChain } from '@paraspell/sdk-pjs';
import { parseLocation, variantOf } from '../../xcm/location';
import { barrierRefusal, type Seen } from './barrier';
import { leastPrice } from './runtime-facts';
import { HopRules } from './hop-rules';
import { assetName, ecosystemOf, isSystemChain, teleportTrusted } from './registry-facts';
import type { Hop } from './walk-types';
import { locText, readAssets, samePath, unversioned, type Held } from './xcm-values';

/** Instructions that move no value and need no check here. */
const QUIET = new Set(['SetTopic', 'ClearTopic', 'SetHints', 'ClearError', 'ReportError', 'SetFeesMode', 'UniversalOrigin', 'UnpaidExecution', 'Transact', 'ReportHolding', 'QueryResponse', 'SubscribeVersion', 'UnsubscribeVersion', 'ClearTransactStatus', 'ReportTransactStatus']);

/** The executor's rules on one hop (the walk's state: who the program runs as, what it holds). */
export class ExecutorRules extends HopRules {
  /** Set while InitiateTransfer sends: its remote fees arrive first and pay (PayFees). */
  protected paidUpFront = false;

  /** What needs an origin (WithdrawAsset, TransferReserveAsset): none after ClearOrigin; an account under the sender: its balance is unknown. */
  protected fromOrigin(hop: Hop, at: string, what: string): void {
    if (hop.origin === 'cleared') this.problem(hop, at, `${what}, but ClearOrigin left the program no origin (BadOrigin)`);
    else if (hop.origin === 'account') this.warning(hop, at, `${what}: the sender's account as ${hop.chain} derives it, whose balance cannot be told`);
  }

  /** The instructions the walk reads without moving value: origins, Trap, expectations, BurnAsset; anything else is not modelled. */
  protected executorRule(hop: Hop, name: string, value: unknown, at: string): void {
    switch (name) {
      case 'ClearOrigin':
        hop.origin = 'cleared';
        return;
      case 'DescendOrigin':
        if (hop.origin === 'cleared') this.problem(hop, at, 'descends from no origin: ClearOrigin came before (BadOrigin)');
        else hop.origin = 'account';
        return;
      case 'AliasOrigin':
        return this.aliasOrigin(hop, value, at);
      case 'Trap':
        return this.problem(hop, at, `Trap(${String(value)}) stops the program: what it holds is trapped`);
      case 'ExpectAsset':
        return this.expectAsset(hop, readAssets(hop.chain, value), at);
      case 'ExpectOrigin':
        if (hop.origin === 'cleared' ? value !== null && value !== undefined : value === null || value === undefined) {
          this.problem(hop, at, `expects ${value ? locText(parseLocation(value) ?? { parents: 0, junctions: [] }) : 'no origin'}, but the program runs as ${hop.origin === 'cleared' ? 'no one (ClearOrigin came before)' : 'its sender'} (ExpectationFalse)`);
        } else if (hop.origin !== 'cleared') this.warning(hop, at, 'compares the origin with a location: whether they are the same cannot be told');
        return;
      case 'ExpectError':
        if (value !== null && value !== undefined) this.problem(hop, at, `expects the error ${JSON.stringify(value)}, but none happened before it (ExpectationFalse)`);
        return;
      case 'BurnAsset':
        return this.burn(hop, readAssets(hop.chain, value));
      case 'RefundSurplus':
        hop.feesAside = false;
        return;
      default:
        if (!QUIET.has(name)) this.warning(hop, at, `the route check does not model ${name}: what it does on ${hop.chain} cannot be told`);
    }
  }

  private aliasOrigin(hop: Hop, value: unknown, at: string): void {
    const target = parseLocation(unversioned(value));
    if (hop.origin === 'cleared') this.problem(hop, at, 'aliases no origin: ClearOrigin came before (BadOrigin)');
    else if (hop.origin === 'chain' && target?.parents === 0) this.problem(hop, at, `${target ? locText(target) : 'the location'} is an account of ${hop.chain}; the sending chain may not alias it (NoPermission)`);
    else this.warning(hop, at, `whether ${hop.chain} lets the origin alias ${target ? locText(target) : JSON.stringify(value)} (its Aliasers) cannot be told`);
    hop.origin = 'account';
  }

  private expectAsset(hop: Hop, wanted: Held[], at: string): void {
    for (const want of wanted) {
      const held = hop.holding.find((h) => samePath(h.path, want.path));
      const name = assetName(hop.chain, want.path);
      if (!held) this.problem(hop, at, `expects ${name} in the holding, which holds none (ExpectationFalse)`);
      else if (want.amount === null || held.amount === null) this.warning(hop, at, `expects ${name}: whether enough is held cannot be told`);
      else if (want.amount > held.amount || (held.reduced && want.amount >= held.amount)) this.problem(hop, at, `expects ${want.amount} of ${name}, but the holding has ${held.reduced ? 'less than ' : ''}${held.amount} (ExpectationFalse)`);
    }
  }

  private burn(hop: Hop, burnt: Held[]): void {
    for (const b of burnt) {
      const held = hop.holding.find((h) => samePath(h.path, b.path));
      if (!held) continue;
      if (b.amount === null || held.amount === null || b.amount >= held.amount) hop.holding = hop.holding.filter((h) => h !== held);
      else held.amount -= b.amount;
    }
  }

  /** The barrier of a message that arrives: `arrive` the instruction(s) bringing `moved` in (null: pallet-xcm's send, whose message descends to the signer first). */
  protected barrier(hop: Hop, sender: TChain, arrive: string | null, moved: Held[], xcm: unknown): void {
    if (hop.chain === 'Ethereum') return;
    const program = Array.isArray(xcm) ? xcm : [];
    const written: Seen[] = program.map((i) => {
      const [name, value] = variantOf(i) ?? ['', null];
      return { name, value };
    });
    const prelude: Seen[] = arrive
      ? [{ name: arrive.split('+')[0]!, value: null, assets: this.paidUpFront ? 1 : moved.length }, ...(this.paidUpFront ? [{ name: 'PayFees', value: null }] : []), { name: 'ClearOrigin', value: null }]
      : [{ name: 'DescendOrigin', value: null }];
    // Only the relay and its system chains may execute unpaid on another system chain.
    const unpaid = isSystemChain(sender) && (ecosystemOf(sender) === ecosystemOf(hop.chain) || /^BridgeHub/.test(sender));
    const refusal = barrierRefusal([...prelude, ...written], leastPrice(hop.chain), unpaid);
    if (refusal) this.problem(hop, 'barrier', refusal);
  }

  /** A chain that takes `moved` as teleports from `sender` does not take them as a reserve deposit from it. */
  protected trustedReserve(hop: Hop, sender: TChain, moved: Held[]): void {
    for (const held of moved) {
      if (teleportTrusted(sender, hop.chain) && this.teleportable(sender, held.path)) {
        this.problem(hop, 'ReserveAssetDeposited', `${hop.chain} takes ${assetName(hop.chain, held.path)} from ${sender} as a teleport, not as a reserve deposit (UntrustedReserveLocation)`);
      }
    }
  }

  /** After the program: what stays in the holding is trapped (AssetsTrapped), not delivered. */
  protected settle(hop: Hop): void {
    if (hop.feesAside) this.warning(hop, 'PayFees', 'PayFees sets fees aside and no RefundSurplus follows: what execution does not use of them is trapped (AssetsTrapped)');
    const left = hop.holding.filter((h) => h.amount !== 0n);
    if (!hop.view.ok || left.length === 0) return;
    const names = left.map((h) => assetName(hop.chain, h.path)).join(', ');
    this.problem(hop, hop.deposit ?? 'holding', `${names} stay${left.length === 1 ? 's' : ''} in the holding after the program: trapped on ${hop.chain} (AssetsTrapped), not delivered`);
  }
}
