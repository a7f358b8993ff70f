/** The MCP servers section of /plugins: read-only (`radar mcp approve|remove` change them). */
import type { McpServerSummary } from "../../src/core/plugin_state.ts";
import { Table } from "./table.tsx";

/** A table of MCP servers with their state and grants; nothing when none are known. */
export function McpServerList(props: { servers?: McpServerSummary[] }) {
  if (!props.servers?.length) return null;
  return (
    <section>
      <h2>MCP servers</h2>
      <Table columns={["Server", "Runs", "State", "May touch", "Tools"]}>
        {props.servers.map((server) => (
          <tr>
            <td>{server.name}</td>
            <td>{server.program}</td>
            <td>
              {server.toolChanges?.length
                ? `needs re-approval: run radar mcp approve ${server.name}`
                : server.state === "approved"
                ? "approved"
                : `${server.state}: run radar mcp approve ${server.name}`}
              {server.toolChanges?.length
                ? (
                  <p class="notice warning">
                    Tools changed since approval ({server.toolChanges.join(", ")}): only unchanged
                    approved tools are offered until you run radar mcp approve {server.name}
                  </p>
                )
                : null}
            </td>
            <td>{server.grants}</td>
            <td>{server.tools}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
