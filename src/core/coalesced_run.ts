/**
 * A trigger that runs its work one at a time: triggers that come while it runs make exactly one
 * more run (a burst of new mail or of "tools changed" notifications costs two runs, not a flood).
 */
export function coalescedRun(work: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    try {
      do {
        again = false;
        await work();
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}
