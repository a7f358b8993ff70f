/**
 * The modules Radar loads at run time, `import(new URL("./x.ts", import.meta.url).href)`: Deno
 * neither reads nor keeps them (nor what they import) while a process starts, so each command
 * loads only its own path. `deno compile` cannot see them, so scripts/compile.ts embeds every one
 * found here (`--include`); tests/project/startup_graph_test.ts checks the list.
 */
import { dirname, join, relative } from "node:path";
import { commandNames } from "../src/cli/commands/index.ts";

const runTimeImport = /import\(\s*new URL\(\s*"([^"]+)",\s*import\.meta\.url\s*\)\.href/g;

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(folder)) {
    const path = join(folder, entry.name);
    if (entry.isDirectory) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** Every run-time imported module of the checkout at `root`, as paths from it (sorted). */
export function runTimeImports(root: string): string[] {
  const found = new Set<string>();
  const files = [
    join(root, "main.ts"),
    ...sourceFiles(join(root, "src")),
    ...sourceFiles(join(root, "web")),
  ];
  for (const file of files) {
    for (const match of Deno.readTextFileSync(file).matchAll(runTimeImport)) {
      found.add(relative(root, join(dirname(file), match[1])));
    }
  }
  // Each command's file, loaded by name (src/cli/commands/index.ts).
  for (const name of commandNames) found.add(`src/cli/commands/${name}.ts`);
  return [...found].sort();
}
