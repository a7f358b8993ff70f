/** Every built-in tool, built from shared dependencies. One file per tool beside this one. */
import type { Tool } from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { recallTool } from "./recall.ts";
import { rememberTool } from "./remember.ts";

/** Builds the built-in tools enabled by config. */
export function builtinTools(deps: ToolDependencies): Tool[] {
  return [
    rememberTool(deps),
    recallTool(deps),
  ];
}
