/**
 * The load client of bench/web_load.ts, run in a Worker so the dashboard's thread only serves
 * (as with a browser): receives { base, headers, waves: string[][] }, fires each wave at once,
 * answers with every request's latency in ms (warm-up wave included).
 */
/// <reference lib="deno.worker" />

self.onmessage = async (
  event: MessageEvent<{ base: string; headers: Record<string, string>; waves: string[][] }>,
) => {
  const { base, headers, waves } = event.data;
  const latencies: number[][] = [];
  try {
    for (const paths of waves) {
      latencies.push(
        await Promise.all(paths.map(async (path) => {
          const started = performance.now();
          const response = await fetch(base + path, { headers });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
          return performance.now() - started;
        })),
      );
    }
    self.postMessage({ latencies });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
