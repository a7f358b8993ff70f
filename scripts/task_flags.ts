/** Reads the runtime flags out of a `deno run … main.ts` task line. */

/** The flags between `deno run` and the entry module of a task command. */
export function flagsOfTask(task: string): string[] {
  const words = task.trim().split(/\s+/);
  const start = words.indexOf("run") + 1;
  const end = words.findIndex((word) => word.endsWith(".ts"));
  if (start <= 0 || end < start) throw new Error(`Cannot read flags of task: ${task}`);
  return words.slice(start, end);
}
