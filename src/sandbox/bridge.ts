// The bridge between the asset hubs, in the shapes the polkadot-fellows runtimes give its messages:
// - an asset hub's XCM router (pallet-xcm-bridge-hub-router, through xcm-builder's
//   SovereignPaidRemoteExporter) sends a message for the other network's asset hub to its sibling
//   bridge hub (para 1002), wrapped: WithdrawAsset and BuyExecution of the bridge fee (paid from
//   the asset hub's sovereign account there), SetAppendix depositing what is left back to it,
//   ExportMessage { network, destination, xcm }, SetTopic;
// - the bridge hub's exporter (HaulBlobExporter) prepends UniversalOrigin(GlobalConsensus(its
//   network)) and DescendOrigin(the sender within it) to `xcm`;
// - the other bridge hub's dispatcher (BridgeBlobDispatcher with the messages pallet's instance)
//   prepends DescendOrigin(PalletInstance(53)) and sends it to the asset hub, which lets that
//   location alias the other network (its UniversalAliases).
import { universalOf, type Junction } from '../xcm/location';
import type { SandboxChainName } from './chain-data';
import { PLACES } from './topology';
import { locJson } from './xcm-program';

/** Each network's bridge hub: its para id and the index of its messages pallet with the other network. */
export const BRIDGE_HUB = { paraId: 1002, messagesPallet: 53 } as const;

/** Whether a message from `from` to `to` crosses the bridge. */
export const crossesBridge = (from: SandboxChainName, to: SandboxChainName): boolean => PLACES[from].network !== PLACES[to].network;

/** A chain's bridge hub as it names it (a sibling parachain). */
export const bridgeHubJson = { parents: 1, interior: { X1: [{ Parachain: BRIDGE_HUB.paraId }] } };

/** The location the other network's bridge hub dispatches from, as the receiving asset hub names it. */
export const bridgeDispatcherJson = { parents: 1, interior: { X2: [{ Parachain: BRIDGE_HUB.paraId }, { PalletInstance: BRIDGE_HUB.messagesPallet }] } };

const junctionJson = (j: Junction): unknown => (locJson({ parents: 0, junctions: [j] }).interior as { X1: unknown[] }).X1[0];

/** What `from`'s router sends its bridge hub for `to` (the message `to` is to receive, SetTopic last), paying `fee` of the relay token. */
export function exportProgram(from: SandboxChainName, to: SandboxChainName, xcm: unknown[], fee: bigint): unknown[] {
  const [network, ...destination] = universalOf(PLACES[to].network, PLACES[to].paraId);
  const payment = { id: { parents: 1, interior: 'Here' }, fun: { Fungible: fee } };
  const topic = xcm.at(-1) as { SetTopic?: unknown } | undefined;
  return [
    { WithdrawAsset: [payment] },
    { BuyExecution: { fees: payment, weightLimit: 'Unlimited' } },
    { SetAppendix: [{ DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: { parents: 1, interior: { X1: [{ Parachain: PLACES[from].paraId }] } } } }] },
    { ExportMessage: { network: (junctionJson(network!) as { GlobalConsensus: unknown }).GlobalConsensus, destination: locJson({ parents: 0, junctions: destination }).interior, xcm } },
    ...(topic?.SetTopic !== undefined ? [topic] : []),
  ];
}

/** The exporter's prefix: `xcm` as it leaves the bridge hub, sent by `source` (its universal location). */
export function exported(source: Junction[], xcm: unknown[]): unknown[] {
  const [network, ...within] = source;
  const descend = within.length ? [{ DescendOrigin: locJson({ parents: 0, junctions: within }).interior }] : [];
  return [{ UniversalOrigin: junctionJson(network!) }, ...descend, ...xcm];
}

/** The dispatcher's prefix: what arrives at the asset hub across the bridge. */
export const dispatched = (xcm: unknown[]): unknown[] => [{ DescendOrigin: { X1: [{ PalletInstance: BRIDGE_HUB.messagesPallet }] } }, ...xcm];
