// One plain sentence per XCM instruction, read on the chain that executes it.
import type { TChain } from '@paraspell/sdk-pjs';
import { amountText, isObject, placeText, readAsset, resolve, unversion, variant, weightLimit } from './xcm-reader';
import type { AssetAmount, XcmStep } from './views';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Assets a sentence names one by one; a longer list is summed up after them (the call's args hold them all). */
const NAMED_ASSETS = 8;
const assetsText = (reader: TChain | null, assets: unknown): string => {
  const all = list(assets);
  if (!reader) return `${all.length} asset(s)`;
  const read: AssetAmount[] = all.slice(0, NAMED_ASSETS).map((a) => readAsset(reader, a));
  const more = all.length > NAMED_ASSETS ? ` and ${all.length - NAMED_ASSETS} more asset(s)` : '';
  return `${read.map(amountText).join(', ')}${more}` || 'no assets';
};

/** A wildcard or definite asset filter in words. */
function filterText(reader: TChain | null, filter: unknown): string {
  const [kind, value] = variant(filter);
  if (kind === 'Definite') return assetsText(reader, value);
  const [wild, count] = variant(value);
  if (wild === 'AllCounted') return `everything left (at most ${String(count)} asset kind(s))`;
  if (wild === 'All') return 'everything left';
  if ((wild === 'AllOf' || wild === 'AllOfCounted') && isObject(count) && reader) {
    const asset = readAsset(reader, { id: count.id, fun: { fungible: 0 } });
    return `all the ${asset.symbol ?? JSON.stringify(asset.location)} in the holding`;
  }
  return `${wild} of the holding`;
}

const weightText = (limit: unknown): string => {
  const w = weightLimit(limit);
  return w === 'unlimited' ? 'no weight limit' : `a weight limit of ${w.refTime} ref time / ${w.proofSize} proof size`;
};

/**
 * The steps of an XCM program executed on `chain`; programs that travel on (InitiateTransfer,
 * DepositReserveAsset, ...) continue on the chain they are sent to.
 */
export function readProgram(chain: TChain | null, program: unknown): XcmStep[] {
  const steps: XcmStep[] = [];
  const at = chain ?? 'unknown';
  const where = (dest: unknown): { chain: TChain | null; text: string } => {
    if (!chain) return { chain: null, text: JSON.stringify(dest) };
    return { chain: resolve(chain, dest).chain, text: placeText(chain, dest) };
  };
  for (const instruction of list(unversion(program).value)) {
    const [name, v] = variant(instruction);
    const o = isObject(v) ? v : {};
    const step = (text: string, extra: Partial<XcmStep> = {}) => steps.push({ chain: at, instruction: name, text, ...extra });
    switch (name) {
      case 'WithdrawAsset':
        step(`Withdraw ${assetsText(chain, v)} from the origin's account into the holding`);
        break;
      case 'ReserveAssetDeposited':
        step(`Credit ${assetsText(chain, v)} to the holding, backed by the reserve that sent them`);
        break;
      case 'ReceiveTeleportedAsset':
        step(`Mint ${assetsText(chain, v)} teleported from the origin into the holding`);
        break;
      case 'ClearOrigin':
        step('Clear the origin: what follows runs without the sender\'s authority');
        break;
      case 'DescendOrigin':
        step(`Descend the origin into ${JSON.stringify(v)}`);
        break;
      case 'BuyExecution':
        step(`Pay for execution with up to ${chain ? amountText(readAsset(chain, o.fees)) : 'the fee asset'}, with ${weightText(o.weightLimit)}`);
        break;
      case 'PayFees':
        step(`Pay fees with up to ${chain ? amountText(readAsset(chain, o.asset)) : 'the fee asset'}`);
        break;
      case 'SetFeesMode':
        step(`Set the fees mode (jit_withdraw: ${String(isObject(v) ? v.jitWithdraw : v)})`);
        break;
      case 'RefundSurplus':
        step('Refund unused execution weight to the holding');
        break;
      case 'DepositAsset':
        step(`Deposit ${filterText(chain, o.assets)} to ${where(o.beneficiary).text}`);
        break;
      case 'ExpectTransactStatus':
        step(`Stop unless the call above succeeded (${variant(v)[0]})`);
        break;
      case 'Transact': {
        const [originKind] = variant(o.originKind);
        const weight = 'requireWeightAtMost' in o ? weightLimit({ limited: o.requireWeightAtMost }) : o.fallbackMaxWeight ? weightLimit({ limited: o.fallbackMaxWeight }) : null;
        const callHex = isObject(o.call) ? String(o.call.encoded) : String(o.call);
        const weightWords = weight === null ? 'no weight limit given' : weightText({ limited: weight });
        step(`Dispatch a call as ${originKind} origin with ${weightWords}`, { transact: { originKind, weight, callHex } });
        break;
      }
      case 'InitiateReserveWithdraw':
      case 'InitiateTeleport':
      case 'DepositReserveAsset':
      case 'TransferReserveAsset': {
        const dest = where(o.reserve ?? o.dest);
        const verb = name === 'InitiateTeleport' ? 'Teleport' : name === 'InitiateReserveWithdraw' ? 'Send back to its reserve' : 'Move to the reserve account of';
        step(`${verb} ${filterText(chain, o.assets)} — ${dest.text} — and run the program below there`);
        steps.push(...readProgram(dest.chain, o.xcm));
        break;
      }
      case 'InitiateTransfer': {
        const dest = where(o.destination);
        step(`Transfer assets to ${dest.text}${o.preserveOrigin ? ', keeping the origin' : ''}, and run the program below there`);
        steps.push(...readProgram(dest.chain, o.remoteXcm));
        break;
      }
      case 'SetAppendix':
      case 'SetErrorHandler': {
        const inner = readProgram(chain, v);
        step(`${name === 'SetAppendix' ? 'When the program ends, even after an error,' : 'If the program fails,'} run the ${inner.length} instruction(s) below`);
        steps.push(...inner);
        break;
      }
      case 'SetTopic':
        step(`Set the message topic (its id for tracking) to ${String(v)}`);
        break;
      case 'ExportMessage':
        step(`Export a message over the bridge to ${JSON.stringify(o.network ?? v)}`);
        break;
      default:
        step(`${name} ${JSON.stringify(v)}`);
    }
  }
  return steps;
}
