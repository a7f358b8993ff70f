/**
 * A value built on its first use, then kept: for what a process may never need (the zod schemas
 * that check a subprocess's or a service's answers), so building it is not part of every start.
 */
export function lazyValue<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
