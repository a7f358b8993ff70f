/** Every built-in tool, built from shared dependencies. One file per tool beside this one. */
import type { Tool } from "../core/tool.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { execTool } from "./exec.ts";
import { fetchUrlTool } from "./fetch_url.ts";
import { listDirectoryTool } from "./list_directory.ts";
import { notifyTool } from "./notify.ts";
import { pdfExtractTool } from "./pdf_extract.ts";
import { readFileTool } from "./read_file.ts";
import { recallTool } from "./recall.ts";
import { rememberTool } from "./remember.ts";
import { webSearchTool } from "./web_search.ts";
import { writeFileTool } from "./write_file.ts";

/** Builds the built-in tools enabled by config. */
export function builtinTools(deps: ToolDependencies): Tool[] {
  return [
    rememberTool(deps),
    recallTool(deps),
    ...(deps.config.tools.exec.enabled ? [execTool(deps)] : []),
    readFileTool(deps),
    writeFileTool(deps),
    listDirectoryTool(deps),
    notifyTool(deps),
    pdfExtractTool(deps),
    webSearchTool(deps),
    fetchUrlTool(deps),
  ];
}
