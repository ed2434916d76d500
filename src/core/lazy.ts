// A value made on its first use and kept. zod builds a schema's whole object graph when it is
// declared, so schemas a run may never need (definition fields, a remote child's spec) are
// declared through this: loading their module then costs no construction (docs/performance.md).

/** `make`, called once, on the first call of the returned function. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
