import type { ReadJunction, ReadLocation, XcmAnalyserRequest } from '../../schemas/xcm-analyser';

// The compact path form of locations that the ParaSpell XCM API's /xcm-analyser answers:
// `./Parachain(2000)`, `../../PalletInstance(50)/GeneralIndex(1984)`, one `../` per parent.
// Where upstream has no form, ours is documented in openapi.yaml: `Here` for an empty interior
// (upstream fails), and a network given as an object is written by its variant
// (`{"polkadot": null}` -> `Polkadot`, `{"Ethereum": {"chainId": 1}}` -> `Ethereum(1)`), where
// upstream writes `[object Object]`.

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A value as it stands inside a junction's parentheses: a variant object by its name (and its
 * value, if any), a struct by its values.
 */
function valueText(value: unknown, variant = true): string {
  if (value === null || typeof value !== 'object') return String(value).replace(/,/g, '');
  const entries = Object.entries(value);
  if (variant && !Array.isArray(value) && entries.length === 1) {
    const [name, inner] = entries[0]!;
    return inner === null ? capitalize(name) : `${capitalize(name)}(${valueText(inner, false)})`;
  }
  return entries.map(([, v]) => valueText(v)).join(', ');
}

function junctionText({ type, value }: ReadJunction): string {
  const v = value as Record<string, unknown>;
  switch (type) {
    case 'AccountId32':
      return `AccountId32(${valueText(v.network)}, ${String(v.id)})`;
    case 'AccountIndex64':
      return `AccountIndex64(${valueText(v.network)}, ${valueText(v.index)})`;
    case 'AccountKey20':
      return `AccountKey20(${valueText(v.network)}, ${String(v.key)})`;
    case 'GeneralKey':
      return `GeneralKey(${valueText(v.length)}, ${String(v.data)})`;
    case 'Plurality':
      return `Plurality(${valueText(v.id)}, ${valueText(v.part)})`;
    default:
      return `${type}(${valueText(value)})`;
  }
}

/** `./Parachain(2000)`, `../Here`: the path form of one location. */
export function locationPath({ parents, junctions }: ReadLocation): string {
  const start = parents > 0 ? '../'.repeat(parents) : './';
  return start + (junctions.length === 0 ? 'Here' : junctions.map(junctionText).join('/'));
}

/** The answer of /xcm-analyser: one path for a location, a list (one per item that holds one) for a program. */
export const locationPaths = (request: XcmAnalyserRequest): string | string[] =>
  'location' in request ? locationPath(request.location) : request.xcm.map(locationPath);
