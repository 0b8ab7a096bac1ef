import type { ApiPromise } from '../sdk';

const noopDisconnect = (): Promise<void> => Promise.resolve();

/** True for a class method (a function found as a plain value on the prototype chain). */
function isMethod(target: object, prop: PropertyKey): boolean {
  if (Object.prototype.hasOwnProperty.call(target, prop)) return false;
  for (let proto = Object.getPrototypeOf(target); proto; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, prop);
    if (descriptor) return typeof descriptor.value === 'function';
  }
  return false;
}

/**
 * Wraps a pooled ApiPromise so borrowers cannot close it: the SDK calls `api.disconnect()`
 * (even forced) in its own `finally` blocks, but the connection belongs to the pool.
 * Everything else reads through to the real object. Class methods are bound to it because
 * ApiPromise uses private fields (`this.#registry`) that a Proxy receiver cannot reach;
 * getter values such as `api.tx` (a callable carrying the pallet sections) pass unchanged.
 */
export function protectApi(api: ApiPromise): ApiPromise {
  const bound = new WeakMap<object, unknown>();
  return new Proxy(api, {
    get(target, prop) {
      if (prop === 'disconnect') return noopDisconnect;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || !isMethod(target, prop)) return value;
      // One bound copy per method, so repeated reads return the same function.
      let fn = bound.get(value);
      if (fn === undefined) {
        fn = (value as (...args: unknown[]) => unknown).bind(target);
        bound.set(value, fn);
      }
      return fn;
    },
  });
}
