/**
 * `comic_info`: a comic's (CBZ, CBR) or a PDF's metadata. Reads ComicInfo.xml or PDF Info, what the
 * file name says, the cover (vision model), and (when configured and the file says too little)
 * ComicVine or Open Library; says
 * where `library.comics` / `library.documents` would file it. With `set`, writes ComicInfo.xml
 * into a CBZ (never a CBR) or PDF Info into a PDF: a new file written beside the original and
 * renamed over it, or with `file` moved to its library place in the same change; journaled, the
 * original kept for undo. Writing outside the writable folders needs a yes, a grant or an approval.
 */
import { z } from "zod";
import type { describeComic, MetadataLookup, WriteDependencies } from "../library/mod.ts";
import { comicFormatOf } from "../library/comic_archive.ts";
import { failed, refused, timedOut, type Tool, type ToolContext } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { ToolDependencies } from "./dependencies.ts";
import { openCheckedForRead } from "../adapters/os/checked_open.ts";
import { type FileAccessDependencies, pathGuardFor } from "../adapters/os/file_access.ts";
import { describeFsError, fileFailure } from "../adapters/os/file_changes.ts";
import { lookupOrigins } from "./destinations.ts";

/** What comic_info needs. */
export type ComicInfoToolDependencies =
  & FileAccessDependencies
  & Pick<ToolDependencies, "pdfReader" | "pdfInfoWriter" | "visionModel" | "fetch" | "clock">
  & Required<Pick<ToolDependencies, "comicArchives">>
  & Omit<WriteDependencies, "guard" | "archives" | "pdfInfoWriter">;

const maxPdfBytes = 200 * 1024 * 1024;

/** The library's face, loaded with the tool's first call (a run that never calls it skips it). */
function libraryModule(): Promise<typeof import("../library/mod.ts")> {
  return import(new URL("../library/mod.ts", import.meta.url).href);
}

/** comic_info's arguments, built on first use (offered as in src/core/tool_parameters.ts). */
export const comicInfoInput = lazyValue(() =>
  z.object({
    path: z.string().min(1).max(4096),
    set: z.record(z.string().max(40), z.union([z.string().max(4000), z.number(), z.null()]))
      .optional(),
    file: z.boolean().optional(),
  })
);

/**
 * Creates the comic_info tool; `lookup` is injectable for tests (else the library's, made on the
 * first call and kept: its hourly limits count across calls).
 */
export function comicInfoTool(
  deps: ComicInfoToolDependencies,
  lookup?: MetadataLookup,
): Tool {
  return defineTool({
    name: "comic_info",
    description: "Comic/PDF metadata: read or set (file: move to library)",
    // Offered in heartbeats and tasks, and in chat when a message is about comics or metadata or a
    // filing skill is loaded: every other request saves its schema's tokens.
    onDemand: true,
    keywords: ["comic", "cbz", "cbr", "comicinfo", "metadata", "manga"],
    // Set writes the file, file moves it: a grant on `path` lets a heartbeat do both. Reading
    // changes nothing, but a configured lookup sends what the file says to that service.
    effect: ({ set, file }) =>
      (set && Object.keys(set).length) || file
        ? "local_write"
        : lookupOrigins(deps.config).length
        ? "sends_out"
        : "none",
    destinations: () => lookupOrigins(deps.config),
    pathArguments: ["path"],
    parameters: toolParameters.comic_info,
    input: comicInfoInput,
    run: async ({ path, set, file: fileIt }, context) => {
      const guard = pathGuardFor(deps);
      const writing = (!!set && Object.keys(set).length > 0) || !!fileIt;
      const checked = guard.check(path, writing ? "write" : "read");
      if (!checked.ok) return refused(checked.reason);
      const shown = guard.display(checked.path);
      const format = comicFormatOf(checked.path);
      const isPdf = /\.pdf$/i.test(checked.path);
      if (!format && !isPdf) return failed(`${shown}: comic_info reads .cbz, .cbr and .pdf files.`);
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(checked.path);
      } catch (error) {
        return failed(`Cannot read ${shown}: ${describeFsError(error)}`);
      }
      if (!info.isFile) return failed(`${shown} is not a file.`);
      const cap = isPdf ? maxPdfBytes : deps.config.tools.comics.max_archive_mib * 1024 * 1024;
      if (info.size > cap) {
        return failed(`${shown} is too large (${info.size} bytes; the limit is ${cap}).`);
      }
      const library = await libraryModule();
      lookup ??= library.createMetadataLookup(deps);
      const writeDeps = { ...deps, guard, archives: deps.comicArchives };
      if (writing) {
        const request = { path: checked.path, shown, set: set ?? {}, file: fileIt };
        return isPdf
          ? await library.setPdfInfo(writeDeps, request, context)
          : await library.setComicInfo(writeDeps, request, context);
      }
      let file: Deno.FsFile;
      try {
        file = await openCheckedForRead(checked.path, { guard });
      } catch (error) {
        return fileFailure("read", shown, error);
      }
      const reading = {
        guard,
        path: checked.path,
        shown,
        visionModel: deps.visionModel,
        lookup,
        signal: context.signal,
      };
      if (isPdf) {
        return await library.describePdf(
          { ...reading, layout: deps.config.library.documents, pdfReader: deps.pdfReader },
          file,
        );
      }
      return await readComic(
        library,
        deps,
        { ...reading, layout: deps.config.library.comics },
        file,
        info.size,
        context,
      );
    },
  });
}

async function readComic(
  library: typeof import("../library/mod.ts"),
  deps: ComicInfoToolDependencies,
  reading: Parameters<typeof describeComic>[0],
  file: Deno.FsFile,
  size: number,
  context: ToolContext,
) {
  const result = await deps.comicArchives.read({
    format: comicFormatOf(reading.path)!,
    input: file.readable,
    size,
    renderCover: !!deps.visionModel,
    signal: context.signal,
  });
  switch (result.status) {
    case "ok": {
      const contents = result.contents;
      // The cover is worth a vision request only when the file does not say what it is.
      if (contents.info?.Series && contents.info?.Number) delete contents.coverPng;
      return await library.describeComic(reading, contents);
    }
    case "broken":
      return failed(`${reading.shown} is not a readable comic archive: ${result.message}.`);
    case "timeout":
      return timedOut(
        `Reading ${reading.shown} took longer than ${result.seconds} s and was stopped (tools.comics.timeout_seconds); the archive may be malformed or hostile.`,
      );
    case "failed":
      return failed(`Cannot read ${reading.shown}: ${result.message}.`);
  }
}
