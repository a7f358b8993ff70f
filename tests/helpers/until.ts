/**
 * Waits for something the OS or another process does in real time (file events, a subprocess
 * reaching a point): polls `condition` every 20 ms, failing after `seconds`. Never for time a
 * test can inject (use a ManualClock or ManualTimers for that).
 */
export async function until(what: string, condition: () => boolean, seconds = 10): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
