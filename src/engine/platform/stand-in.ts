/**
 * Makes instances of `standIn` pass for the platform's `original` class (Request, Response)
 * while building the platform object only when something needs it: the stand-in's prototype
 * inherits the original's, so `instanceof` and `Object.prototype.toString` hold, and every member
 * of the original's prototype is answered by the platform object `build` returns for the
 * instance (built once, by `build`); the members in `own` are answered without building it.
 *
 * Not for code that reads the platform object's internals: `new Request(standIn)`, `fetch(standIn)`
 * and `respondWith(standIn)` throw. Hence stand-ins stay inside what asks for them (a host that
 * writes answers itself); `new Request(url, standIn)` (the stand-in as init) works.
 *
 * Why: in Node a platform Request carrying an abort signal, or a Response with a text body,
 * costs more than the whole rest of a small answer (a signal registration, a ReadableStream and
 * their garbage), and most answers never need either (docs/PERFORMANCE.md, "Answers built on
 * demand").
 */
export function standInFor<T extends object>(
  standIn: { prototype: T },
  original: { prototype: object },
  build: (instance: T) => object,
  own: PropertyDescriptorMap & ThisType<T>,
): void {
  Object.setPrototypeOf(standIn.prototype, original.prototype);
  for (const key of Reflect.ownKeys(original.prototype)) {
    if (key === 'constructor' || key === Symbol.toStringTag) continue;
    const descriptor = Object.getOwnPropertyDescriptor(original.prototype, key)!;
    if (typeof descriptor.value === 'function') {
      const method = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(standIn.prototype, key, {
        ...descriptor,
        value(this: T, ...args: unknown[]) {
          return method.apply(build(this), args);
        },
      });
    } else if (descriptor.get) {
      const getter = descriptor.get;
      Object.defineProperty(standIn.prototype, key, {
        ...descriptor,
        get(this: T) {
          return getter.call(build(this));
        },
      });
    }
  }
  for (const [key, descriptor] of Object.entries(own)) {
    Object.defineProperty(standIn.prototype, key, { configurable: true, enumerable: true, ...descriptor });
  }
}
