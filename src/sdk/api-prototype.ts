/**
 * The prototype of an SDK flavour's chain API class (what its builders call: sdk-pjs's
 * PolkadotJsApi, the papi SDK's PapiApi), where the patches in ./patches go.
 */
export function apiPrototypeOf<T>(sdkModule: { Builder(options: object): unknown }): T {
  return Object.getPrototypeOf((sdkModule.Builder({}) as { api: object }).api) as T;
}
