// The verdict corpus (issue 41): XCM programs, each sent as call data from a relay chain or its
// system chains, and what the real runtime does with it (Paseo relay 1.9.3, Asset Hub Paseo 1.5.1,
// People Paseo 2.0.6: DryRunApi's dry_run_call on the origin, dry_run_xcm on each chain a message
// reaches). That outcome is the expected answer of /explain's `route` (test/real) and of the
// sandbox's executor, the corpus re-targeted at its chains (test/sandbox). Chains are named by
// role; the XCM is the same JSON on both networks (para ids 1000 and 1004, the relay token Here).

/** A chain by its role in the network: the relay, its Asset Hub, its People chain. */
export type Role = 'relay' | 'hub' | 'people';

export const PASEO: Record<Role, string> = { relay: 'Paseo', hub: 'AssetHubPaseo', people: 'PeoplePaseo' };
/** The sandbox has no People chain: programs that need one run only on the real runtimes. */
export const SANDBOX: Partial<Record<Role, string>> = { relay: 'Polkadot', hub: 'AssetHubPolkadot' };

export type VerdictClass =
  | 'delivered'
  | 'barrier-window'
  | 'barrier-asset-count'
  | 'weight-limit'
  | 'fee-price'
  | 'trap'
  | 'expectation'
  | 'burn'
  | 'cleared-origin'
  | 'alias-origin'
  | 'descend-origin'
  | 'all-counted'
  | 'leftover-trapped'
  | 'account-key20'
  | 'decode-depth'
  | 'transfer-type';

/** Where the runtime stops a program: the hop (0 is the origin) and the instruction it runs there. */
export interface Failure {
  hop: number;
  /** The instruction at the runtime's error index in that hop's message, or `barrier` when the barrier refuses it. */
  at: string;
  /** The runtime's error (XcmError, or the pallet's for the origin's call). */
  error: string;
}

export interface VerdictProgram {
  name: string;
  class: VerdictClass;
  origin: Role;
  /** The pallet's method and its arguments as polkadot.js's createType takes them (the pallet is xcmPallet or polkadotXcm). */
  method: string;
  args: unknown[];
  /** The chains the message reaches after the origin, in order. */
  path: Role[];
  /** What the real runtime did: delivered, or where it stopped. */
  expect: { delivered: true } | { delivered: false; failure: Failure };
  /** Why the sandbox's chains cannot run it (it needs People, or Polkadot's runtime differs there from Paseo's). */
  realOnly?: string;
}

/** Whether the sandbox's chains can run `program`. */
export const onSandbox = (program: VerdictProgram): boolean => !program.realOnly && [program.origin, ...program.path].every((role) => SANDBOX[role] !== undefined);

export const ALICE = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
export const BOB = '0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48';
const KEY20 = '0x1234567890abcdef1234567890abcdef12345678';

type Version = 'V3' | 'V4' | 'V5';
const PAS = 10_000_000_000n;
const AMOUNT = 10n * PAS;
const FEE = PAS;

/** Locations and assets in the spelling of each XCM version. */
function spell(v: Version) {
  const interior = (junctions: unknown[]) => (junctions.length === 0 ? 'Here' : v === 'V3' ? { [`X${junctions.length}`]: junctions.length === 1 ? junctions[0] : junctions } : { [`X${junctions.length}`]: junctions });
  const loc = (parents: number, ...junctions: unknown[]) => ({ parents, interior: interior(junctions) });
  const asset = (parents: number, amount: bigint) => ({ id: v === 'V3' ? { Concrete: loc(parents) } : loc(parents), fun: { Fungible: amount.toString() } });
  const account = (id: string) => loc(0, { AccountId32: { network: null, id } });
  return { loc, asset, account, all: (n: number) => ({ Wild: { AllCounted: n } }) };
}

const relayTo = (v: Version, para: number) => spell(v).loc(0, { Parachain: para });
const buy = (v: Version, fee = FEE, weightLimit: unknown = 'Unlimited') => ({ BuyExecution: { fees: spell(v).asset(1, fee), weightLimit } });
const deposit = (v: Version, beneficiary: unknown = spell(v).account(BOB), assets: unknown = spell(v).all(1)) => ({ DepositAsset: { assets, beneficiary } });
const maxWeight = { refTime: 100_000_000_000, proofSize: 1_000_000 };

/** The relay's signer teleports AMOUNT to Asset Hub with `xcm` run there (after ReceiveTeleportedAsset, ClearOrigin). */
function teleportThen(name: string, klass: VerdictClass, xcm: unknown[], expect: VerdictProgram['expect'], v: Version = 'V5', to: Role = 'hub'): VerdictProgram {
  const s = spell(v);
  const program = [{ WithdrawAsset: [s.asset(0, AMOUNT)] }, { InitiateTeleport: { assets: s.all(1), dest: relayTo(v, to === 'hub' ? 1000 : 1004), xcm } }];
  return { name, class: klass, origin: 'relay', method: 'execute', args: [{ [v]: program }, maxWeight], path: [to], expect };
}

const fails = (hop: number, at: string, error: string): VerdictProgram['expect'] => ({ delivered: false, failure: { hop, at, error } });
const delivered: VerdictProgram['expect'] = { delivered: true };

/** A pallet transfer of AMOUNT of the relay token from `origin` to `to`, to Bob. */
function palletTransfer(name: string, klass: VerdictClass, origin: Role, to: Role, method: string, expect: VerdictProgram['expect'], extra: unknown[] = ['Unlimited'], amount = AMOUNT): VerdictProgram {
  const s = spell('V5');
  const dest = origin === 'relay' ? relayTo('V5', to === 'hub' ? 1000 : 1004) : to === 'relay' ? s.loc(1) : s.loc(1, { Parachain: to === 'hub' ? 1000 : 1004 });
  const asset = s.asset(origin === 'relay' ? 0 : 1, amount);
  return { name, class: klass, origin, method, args: [{ V5: dest }, { V5: s.account(BOB) }, { V5: [asset] }, 0, ...extra], path: [to], expect };
}

/** transferAssetsUsingTypeAndThen from the relay to Asset Hub, the assets moving as `type`. */
function typeAndThen(name: string, type: unknown, expect: VerdictProgram['expect']): VerdictProgram {
  const s = spell('V5');
  const args = [{ V5: relayTo('V5', 1000) }, { V5: [s.asset(0, AMOUNT)] }, type, { V5: s.loc(0) }, type, { V5: [deposit('V5')] }, 'Unlimited'];
  return { name, class: 'transfer-type', origin: 'relay', method: 'transferAssetsUsingTypeAndThen', args, path: ['hub'], expect };
}

const hubAsset = (index: number) => ({ id: spell('V5').loc(0, { PalletInstance: 50 }, { GeneralIndex: index }), fun: { Fungible: '1000' } });

/** The relay's signer sends a program to Asset Hub (pallet-xcm puts DescendOrigin to the signer first); assets in SCALE's order (sorted). */
function sendToHub(name: string, assets: unknown[], expect: VerdictProgram['expect']): VerdictProgram {
  const program = [{ WithdrawAsset: assets }, 'ClearOrigin', buy('V5'), deposit('V5', v5.account(BOB), v5.all(assets.length))];
  return { name, class: 'barrier-asset-count', origin: 'relay', method: 'send', args: [{ V5: relayTo('V5', 1000) }, { V5: program }], path: ['hub'], expect };
}

/** `levels` SetAppendix nested inside each other around a deposit (MAX_XCM_DECODE_DEPTH is 8). */
const nested = (levels: number): unknown[] => (levels === 0 ? [deposit('V5')] : [{ SetAppendix: nested(levels - 1) }]);

const v5 = spell('V5');

export const CORPUS: VerdictProgram[] = [
  // ---- delivered ----
  teleportThen('teleport, BuyExecution, DepositAsset (XCM v5)', 'delivered', [buy('V5'), deposit('V5')], delivered),
  teleportThen('teleport, BuyExecution, DepositAsset (XCM v4)', 'delivered', [buy('V4'), deposit('V4')], delivered, 'V4'),
  teleportThen('teleport, BuyExecution, DepositAsset (XCM v3)', 'delivered', [buy('V3'), deposit('V3')], delivered, 'V3'),
  teleportThen('teleport to People', 'delivered', [buy('V5'), deposit('V5')], delivered, 'V5', 'people'),
  teleportThen('a low fee that still covers the price', 'delivered', [buy('V5', 100_000_000n), deposit('V5')], delivered),
  teleportThen('a weight limit above the message weight', 'delivered', [buy('V5', FEE, { Limited: { refTime: 10_000_000_000, proofSize: 500_000 } }), deposit('V5')], delivered),
  teleportThen('ExpectAsset of less than held', 'delivered', [buy('V5'), { ExpectAsset: [v5.asset(1, PAS)] }, deposit('V5')], delivered),
  teleportThen('ExpectOrigin(None) after ClearOrigin', 'delivered', [buy('V5'), { ExpectOrigin: null }, deposit('V5')], delivered),
  teleportThen('ExpectError(None)', 'delivered', [buy('V5'), { ExpectError: null }, deposit('V5')], delivered),
  teleportThen('BurnAsset of part, then DepositAsset', 'delivered', [buy('V5'), { BurnAsset: [v5.asset(1, PAS)] }, deposit('V5')], delivered),
  teleportThen('DepositAsset of Wild All', 'delivered', [buy('V5'), deposit('V5', v5.account(BOB), { Wild: 'All' })], delivered),
  teleportThen('DepositAsset of Wild AllOf', 'delivered', [buy('V5'), deposit('V5', v5.account(BOB), { Wild: { AllOf: { id: v5.loc(1), fun: 'Fungible' } } })], delivered),
  teleportThen('SetAppendix nested to the decode depth', 'delivered', [buy('V5'), ...nested(6)], delivered),
  palletTransfer('limitedTeleportAssets relay to Asset Hub', 'delivered', 'relay', 'hub', 'limitedTeleportAssets', delivered),
  palletTransfer('limitedTeleportAssets relay to People', 'delivered', 'relay', 'people', 'limitedTeleportAssets', delivered),
  palletTransfer('limitedTeleportAssets with a weight limit that covers the message', 'delivered', 'relay', 'hub', 'limitedTeleportAssets', delivered, [{ Limited: { refTime: 10_000_000_000, proofSize: 500_000 } }]),
  palletTransfer('transferAssets relay to Asset Hub', 'delivered', 'relay', 'hub', 'transferAssets', delivered),
  palletTransfer('transferAssets relay to People', 'delivered', 'relay', 'people', 'transferAssets', delivered),
  typeAndThen('transferAssetsUsingTypeAndThen, Teleport', 'Teleport', delivered),
  {
    name: 'XCM v5 PayFees and InitiateTransfer (teleport)',
    class: 'delivered',
    origin: 'relay',
    method: 'execute',
    args: [
      {
        V5: [
          { WithdrawAsset: [v5.asset(0, AMOUNT)] },
          { PayFees: { asset: v5.asset(0, FEE) } },
          { InitiateTransfer: { destination: relayTo('V5', 1000), remoteFees: { Teleport: { Definite: [v5.asset(0, FEE)] } }, preserveOrigin: false, assets: [{ Teleport: v5.all(1) }], remoteXcm: [{ RefundSurplus: null }, deposit('V5')] } },
        ],
      },
      maxWeight,
    ],
    path: ['hub'],
    expect: delivered,
  },
  // ---- the barrier ----
  teleportThen('no BuyExecution', 'barrier-window', [deposit('V5')], fails(1, 'barrier', 'Barrier')),
  teleportThen('an instruction before BuyExecution', 'barrier-window', [{ ExpectAsset: [v5.asset(1, PAS)] }, buy('V5'), deposit('V5')], fails(1, 'barrier', 'Barrier')),
  teleportThen('no BuyExecution (XCM v3)', 'barrier-window', [deposit('V3')], fails(1, 'barrier', 'Barrier'), 'V3'),
  teleportThen('a weight limit of 1', 'weight-limit', [buy('V5', FEE, { Limited: { refTime: 1, proofSize: 1 } }), deposit('V5')], fails(1, 'barrier', 'Barrier')),
  palletTransfer('limitedTeleportAssets with weight_limit Limited{1,1}', 'weight-limit', 'relay', 'hub', 'limitedTeleportAssets', fails(1, 'barrier', 'Barrier'), [{ Limited: { refTime: 1, proofSize: 1 } }]),
  sendToHub('three assets before paying', [hubAsset(1337), hubAsset(1984), v5.asset(1, PAS)], fails(1, 'barrier', 'Barrier')),
  // ---- fees ----
  teleportThen('BuyExecution of 1 planck', 'fee-price', [buy('V5', 1n), deposit('V5')], fails(1, 'BuyExecution', 'TooExpensive')),
  teleportThen('BuyExecution below the price', 'fee-price', [buy('V5', 1_000_000n), deposit('V5')], fails(1, 'BuyExecution', 'TooExpensive')),
  palletTransfer('limitedTeleportAssets below the existential deposit', 'fee-price', 'relay', 'hub', 'limitedTeleportAssets', fails(0, 'limitedTeleportAssets', 'CannotCheckOutTeleport'), ['Unlimited'], 1_000_000n),
  // ---- instructions that stop a program ----
  teleportThen('Trap', 'trap', [buy('V5'), { Trap: 7 }, deposit('V5')], fails(1, 'Trap', 'Trap')),
  teleportThen('ExpectAsset of more than held', 'expectation', [buy('V5'), { ExpectAsset: [v5.asset(1, 1000n * PAS)] }, deposit('V5')], fails(1, 'ExpectAsset', 'ExpectationFalse')),
  teleportThen('ExpectOrigin(Parent) after ClearOrigin', 'expectation', [buy('V5'), { ExpectOrigin: v5.loc(1) }, deposit('V5')], fails(1, 'ExpectOrigin', 'ExpectationFalse')),
  teleportThen('ExpectError of an error that did not happen', 'expectation', [buy('V5'), { ExpectError: [1, 'Unimplemented'] }, deposit('V5')], fails(1, 'ExpectError', 'ExpectationFalse')),
  teleportThen('BurnAsset of everything before the deposit', 'burn', [buy('V5'), { BurnAsset: [v5.asset(1, AMOUNT)] }, deposit('V5')], fails(1, 'DepositAsset', 'NotDeposited')),
  teleportThen('ClearOrigin then WithdrawAsset', 'cleared-origin', [buy('V5'), { WithdrawAsset: [v5.asset(1, PAS)] }, deposit('V5')], fails(1, 'WithdrawAsset', 'BadOrigin')),
  teleportThen('AliasOrigin(Bob) then WithdrawAsset', 'alias-origin', [buy('V5'), { AliasOrigin: v5.account(BOB) }, { WithdrawAsset: [v5.asset(1, PAS)] }, deposit('V5')], fails(1, 'AliasOrigin', 'BadOrigin')),
  teleportThen('DescendOrigin after ClearOrigin', 'descend-origin', [buy('V5'), { DescendOrigin: { X1: [{ AccountId32: { network: null, id: BOB } }] } }, deposit('V5')], fails(1, 'DescendOrigin', 'BadOrigin')),
  teleportThen('DepositAsset of Wild AllCounted(0)', 'all-counted', [buy('V5'), deposit('V5', v5.account(BOB), v5.all(0))], fails(1, 'DepositAsset', 'AssetsTrapped')),
  teleportThen('DepositAsset of part: the rest is trapped', 'leftover-trapped', [buy('V5'), deposit('V5', v5.account(BOB), { Definite: [v5.asset(1, PAS)] })], fails(1, 'DepositAsset', 'AssetsTrapped')),
  teleportThen('an AccountKey20 beneficiary on Asset Hub', 'account-key20', [buy('V5'), deposit('V5', v5.loc(0, { AccountKey20: { network: null, key: KEY20 } }))], fails(1, 'DepositAsset', 'FailedToTransactAsset')),
  teleportThen('SetAppendix nested past the decode depth', 'decode-depth', [buy('V5'), ...nested(9)], fails(0, 'InitiateTeleport', 'ExceedsMaxMessageSize')),
  // ---- the pallet's transfer types ----
  typeAndThen('transferAssetsUsingTypeAndThen, LocalReserve (Asset Hub takes no reserve transfer of the relay token)', 'LocalReserve', fails(1, 'ReserveAssetDeposited', 'UntrustedReserveLocation')),
  {
    ...typeAndThen('transferAssetsUsingTypeAndThen, DestinationReserve (Asset Hub is not its reserve for the relay)', 'DestinationReserve', fails(0, 'transferAssetsUsingTypeAndThen', 'InvalidAssetUnsupportedReserve')),
    realOnly: "Polkadot's relay, since its Asset Hub migration, takes its Asset Hub as the reserve of DOT (the SDK sends DOT that way)",
  },
  palletTransfer('limitedReserveTransferAssets of a teleportable token', 'transfer-type', 'relay', 'hub', 'limitedReserveTransferAssets', fails(0, 'limitedReserveTransferAssets', 'Filtered')),
];
