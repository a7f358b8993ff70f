/**
 * A part of Radar built on first need: the composition root declares it in its place in the build
 * order, and its builder (which loads the part's modules at run time) runs once, when something
 * first asks for it. A process that never asks never loads the part's code.
 */

/** A part built on first use: call it for the part; `current()` never builds it. */
export interface FirstUse<T> {
  (): Promise<T>;
  /** The part once built, else undefined (`close()` stops only what was started). */
  current(): T | undefined;
}

/**
 * `build`, run on the first call only; every call gets that one result (or its failure). With
 * `retry`, a failed build is forgotten, so the next call (the next tick) builds again.
 */
export function onFirstUse<T>(
  build: () => Promise<T>,
  options: { retry?: boolean } = {},
): FirstUse<T> {
  let built: Promise<T> | undefined;
  let value: T | undefined;
  const part = () =>
    built ??= build().then((result) => value = result, (error) => {
      if (options.retry) built = undefined;
      throw error;
    });
  return Object.assign(part, { current: () => value });
}
