/**
 * Radar's entry point: the hidden plugin-host, PDF-reader and HTML-query modes (compiled binary),
 * else the CLI.
 */
import { pluginHostFlag } from "./src/sandbox/host_flag.ts";
import { pdfExtractFlag } from "./src/adapters/pdf/pdf_flag.ts";
import { runPluginHost } from "./src/sandbox/host_process.ts";
import { runPdfExtractProcess } from "./src/adapters/pdf/pdf_extract_process.ts";
import { htmlQueryFlag } from "./src/adapters/network/html_query_flag.ts";
import { runHtmlQueryProcess } from "./src/adapters/network/html_query_process.ts";
import { runCli } from "./src/cli/program.ts";
import { terminalIo } from "./src/cli/terminal_io.ts";
import { ignoreInspectorSignal } from "./src/adapters/inspector_signal.ts";

if (import.meta.main) {
  if (Deno.args[0] === pluginHostFlag) {
    await runPluginHost();
  } else if (Deno.args[0] === pdfExtractFlag) {
    await runPdfExtractProcess();
  } else if (Deno.args[0] === htmlQueryFlag) {
    await runHtmlQueryProcess();
  } else {
    // Every CLI process (ask and chat run exec too): SIGUSR1 must not open an inspector. The
    // daemon logs it when this is impossible; a one-shot command goes on without it.
    ignoreInspectorSignal();
    Deno.exit(await runCli(Deno.args, terminalIo()));
  }
}
