/** Time limits around browser work: a page that never answers must not hold a call forever. */

/** Thrown when a browser step ran past its time or its call was cancelled. */
export class BrowserTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BrowserTimeoutError";
  }
}

/**
 * Resolves with `work`, or rejects with a BrowserTimeoutError after `ms` or when `signal`
 * aborts (the work goes on in the background; the session is closed by the caller if needed).
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal,
  what: string,
): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(new BrowserTimeoutError(`${what}: cancelled`));
  }
  return new Promise<T>((resolve, reject) => {
    const stop = (error: Error) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", cancel);
      reject(error);
    };
    const cancel = () => stop(new BrowserTimeoutError(`${what}: cancelled`));
    const timer = setTimeout(
      () => stop(new BrowserTimeoutError(`${what}: no answer within ${Math.round(ms / 1000)} s`)),
      ms,
    );
    signal.addEventListener("abort", cancel, { once: true });
    work.then((value) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", cancel);
      resolve(value);
    }, stop);
  });
}
