/**
 * Radar's entry point: the hidden plugin-host, PDF-reader, HTML-query and config-check modes
 * (compiled binary), else the CLI. Each mode loads at run time (`import(new URL(…))`): Deno
 * neither reads nor keeps the other modes' modules while it starts, and `deno compile` embeds
 * them (scripts/compile.ts).
 */
import { pluginHostFlag } from "./src/sandbox/host_flag.ts";
import { pdfExtractFlag } from "./src/adapters/pdf/pdf_flag.ts";
import { htmlQueryFlag } from "./src/adapters/network/html_query_flag.ts";

if (import.meta.main) {
  if (Deno.args[0] === pluginHostFlag) {
    const { runPluginHost } = await hostProcessModule();
    await runPluginHost();
  } else if (Deno.args[0] === pdfExtractFlag) {
    const { runPdfExtractProcess } = await pdfExtractProcessModule();
    await runPdfExtractProcess();
  } else if (Deno.args[0] === htmlQueryFlag) {
    const { runHtmlQueryProcess } = await htmlQueryProcessModule();
    await runHtmlQueryProcess();
  } else if (Deno.args[0] === "--radar-config-check") {
    // src/daemon/config_check_flag.ts (a literal: `--version` and ask load no daemon module;
    // tests/daemon/config_check_test.ts runs this mode by that constant).
    const { runConfigCheckProcess } = await configCheckProcessModule();
    Deno.exit(await runConfigCheckProcess(Deno.args.slice(1)));
  } else {
    const [{ runCli }, { terminalIo }, { ignoreInspectorSignal }]: [
      typeof import("./src/cli/program.ts"),
      typeof import("./src/cli/terminal_io.ts"),
      typeof import("./src/adapters/inspector_signal.ts"),
    ] = await Promise.all([
      import(new URL("./src/cli/program.ts", import.meta.url).href),
      import(new URL("./src/cli/terminal_io.ts", import.meta.url).href),
      import(new URL("./src/adapters/inspector_signal.ts", import.meta.url).href),
    ]);
    // Every CLI process (ask and chat run exec too): SIGUSR1 must not open an inspector. The
    // daemon logs it when this is impossible; a one-shot command goes on without it.
    ignoreInspectorSignal();
    Deno.exit(await runCli(Deno.args, terminalIo()));
  }
}

/** The plugin host's mode, loaded only by the plugin-host flag. */
function hostProcessModule(): Promise<typeof import("./src/sandbox/host_process.ts")> {
  return import(new URL("./src/sandbox/host_process.ts", import.meta.url).href);
}

/** The PDF reader's mode, loaded only by the PDF-extract flag. */
function pdfExtractProcessModule(): Promise<
  typeof import("./src/adapters/pdf/pdf_extract_process.ts")
> {
  return import(new URL("./src/adapters/pdf/pdf_extract_process.ts", import.meta.url).href);
}

/** The HTML query's mode, loaded only by the HTML-query flag. */
function htmlQueryProcessModule(): Promise<
  typeof import("./src/adapters/network/html_query_process.ts")
> {
  return import(new URL("./src/adapters/network/html_query_process.ts", import.meta.url).href);
}

/** The config check's mode, loaded only by `--radar-config-check`. */
function configCheckProcessModule(): Promise<
  typeof import("./src/daemon/config_check_process.ts")
> {
  return import(new URL("./src/daemon/config_check_process.ts", import.meta.url).href);
}
