/**
 * The tools one personality's runs see: the registry filtered by front matter `tools.include` /
 * `tools.exclude` (names or globs such as `calendar_*`, npm picomatch) BEFORE the budget and the
 * ranking choose among them, plus `load_context` when the personality has context documents.
 * A view, not a copy: plugin tools registered later show up, and a filtered-out tool can be
 * neither offered, nor joined by `find_tools`, nor called.
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import { type ContextDocumentFile, readContextDocument } from "./personality_directory.ts";
import type { PersonalityFrontMatter } from "./personality_file.ts";

/** The name of the context-document tool. */
const loadContextName = "load_context";

/** A predicate over tool names from `include` and `exclude` patterns. */
export function toolFilter(tools: PersonalityFrontMatter["tools"]): (name: string) => boolean {
  const include = tools?.include;
  const exclude = tools?.exclude ?? [];
  const included = include ? picomatch(include) : () => true;
  const excluded = exclude.length ? picomatch(exclude) : () => false;
  return (name) => included(name) && !excluded(name);
}

/** load_context's arguments, built on first use (offered as in src/core/tool_parameters.ts). */
export const loadContextInput = lazyValue(() =>
  z.object({ name: z.string().max(200).describe("Document name") })
);

/** `load_context`: one context document of the run's personality, by its listed name. */
function loadContextTool(dir: string, documents: readonly ContextDocumentFile[]): Tool {
  return defineTool({
    name: loadContextName,
    effect: "none",
    description: "Load a personality context document by name",
    // Offered whenever the personality has documents: the prompt names them.
    alwaysOn: true,
    readOnly: true,
    parameters: toolParameters.load_context,
    input: loadContextInput,
    run: ({ name }) => {
      const read = readContextDocument(dir, documents, name);
      return Promise.resolve("error" in read ? failed(read.error) : read.text);
    },
  });
}

/** The registry a personality's runs use (the base registry when nothing is filtered). */
export function personalityRegistry(
  base: ToolRegistry,
  personality: {
    frontMatter: PersonalityFrontMatter;
    dir?: string;
    contextDocuments: readonly ContextDocumentFile[];
  },
): ToolRegistry {
  const extra = personality.dir && personality.contextDocuments.length
    ? [loadContextTool(personality.dir, personality.contextDocuments)]
    : [];
  if (!personality.frontMatter.tools && !extra.length) return base;
  const keep = toolFilter(personality.frontMatter.tools);
  return base.view((tool) => keep(tool.name), extra);
}
