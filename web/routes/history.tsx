/**
 * `/history`: conversations by kind, searchable, paginated (`GET /history/list` is the
 * fragment the search box refreshes); `/history/:id` shows its messages and tool calls a page
 * at a time (`?after=ID`);
 * `/history/:id/export.md|json` downloads; `POST /history/:id/delete` (or DELETE) removes it.
 */
import { type Context, Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import type { ConversationKind } from "../../src/core/tool.ts";
import { parseId, redirectAfterPost, renderFragment, renderPage } from "../render.tsx";
import { Messages } from "../views/conversation.tsx";
import { ConversationList, type HistoryQuery } from "../views/history_list.tsx";
import { conversationMarkdownChunks } from "../views/export_markdown.ts";
import { conversationJsonChunks, textStream } from "../views/export_stream.ts";
import { Notice } from "../views/layout.tsx";
import { FilterForm } from "../views/filter_form.tsx";
import { formatTime } from "../views/format.ts";

const kinds: readonly ConversationKind[] = ["chat", "ask", "heartbeat", "task"];
/** Messages shown per page of one conversation. */
export const messagesPerPage = 200;
/** Conversations per page. */
const historyPageSize = 25;

function readQuery(c: Context): HistoryQuery {
  const kind = c.req.query("kind");
  const page = Number(c.req.query("page") ?? "1");
  return {
    kind: kinds.includes(kind as ConversationKind) ? kind as ConversationKind : undefined,
    search: (c.req.query("q") ?? "").trim().slice(0, 200),
    page: Number.isInteger(page) && page > 0 && page < 100_000 ? page : 1,
  };
}

/** History routes. */
export function historyRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps } = context;

  function list(query: HistoryQuery) {
    const rows = deps.conversations.list({
      kind: query.kind,
      search: query.search || undefined,
      limit: historyPageSize + 1,
      offset: (query.page - 1) * historyPageSize,
    });
    return (
      <ConversationList
        query={query}
        rows={rows.slice(0, historyPageSize)}
        hasNext={rows.length > historyPageSize}
        total={query.search ? undefined : deps.conversations.count(query.kind)}
        timeZone={context.timeZone()}
      />
    );
  }

  app.get("/history", (c) => {
    const query = readQuery(c);
    return renderPage(
      c,
      context,
      { title: "History", active: "/history" },
      <>
        <FilterForm action="/history" list="/history/list" target="#history-list">
          <input
            type="search"
            name="q"
            value={query.search}
            placeholder="Search titles and messages"
            aria-label="Search"
          />
          <select name="kind" aria-label="Kind">
            <option value="">all kinds</option>
            {kinds.map((kind) => (
              <option value={kind} selected={query.kind === kind}>{kind}</option>
            ))}
          </select>
          <button type="submit" class="secondary">Search</button>
        </FilterForm>
        <div id="history-list">{list(query)}</div>
      </>,
    );
  });

  app.get("/history/list", (c) => renderFragment(c, list(readQuery(c))));

  app.get("/history/:id{[0-9]+}", (c) => {
    const id = parseId(c.req.param("id"));
    const conversation = id ? deps.conversations.conversation(id) : undefined;
    if (!conversation) {
      return renderPage(
        c,
        context,
        { title: "History", active: "/history", status: 404 },
        <Notice kind="warning">No such conversation.</Notice>,
      );
    }
    const after = parseId(c.req.query("after")) ?? 0;
    const messages = deps.conversations.messages(conversation.id, {
      afterId: after,
      limit: messagesPerPage,
    });
    const more = messages.length === messagesPerPage;
    const timeZone = context.timeZone();
    return renderPage(
      c,
      context,
      { title: conversation.title || `Conversation ${conversation.id}`, active: "/history" },
      <>
        <p class="muted">
          #{conversation.id} · {conversation.kind} · started{" "}
          {formatTime(conversation.createdAt, timeZone)} · updated{" "}
          {formatTime(conversation.updatedAt, timeZone)} · {conversation.messageCount} messages
        </p>
        <div class="row toolbar">
          {conversation.kind === "chat"
            ? <a href={`/chat?c=${conversation.id}`}>continue in chat</a>
            : null}
          <a href={`/history/${conversation.id}/export.md`}>export Markdown</a>
          <a href={`/history/${conversation.id}/export.json`}>export JSON</a>
          <form
            method="post"
            action={`/history/${conversation.id}/delete`}
            hx-post={`/history/${conversation.id}/delete`}
            hx-confirm="Delete this conversation and all its messages?"
          >
            <button type="submit" class="danger small">Delete</button>
          </form>
        </div>
        {after
          ? (
            <p>
              <a href={`/history/${conversation.id}`}>← from the first message</a>
            </p>
          )
          : null}
        <Messages
          messages={messages}
          outcomes={deps.toolOutcomes?.(conversation.id)}
          timeZone={timeZone}
        />
        {more
          ? (
            <p>
              <a href={`/history/${conversation.id}?after=${messages.at(-1)!.id}`}>
                next {messagesPerPage} messages →
              </a>
            </p>
          )
          : null}
        {conversation.interruptedAt && !more
          ? (
            <Notice kind="warning">
              Interrupted: the run was stopped before it finished (its process ended); nothing after
              this was stored. Found {formatTime(conversation.interruptedAt, timeZone)}.
            </Notice>
          )
          : null}
      </>,
    );
  });

  const exports = [
    { extension: "md", chunks: conversationMarkdownChunks, type: "text/markdown; charset=utf-8" },
    { extension: "json", chunks: conversationJsonChunks, type: "application/json; charset=utf-8" },
  ];
  for (const { extension, chunks, type } of exports) {
    app.get(`/history/:id{[0-9]+}/export.${extension}`, (c) => {
      const id = parseId(c.req.param("id"));
      const conversation = id ? deps.conversations.conversation(id) : undefined;
      if (!conversation) return c.text("No such conversation.", 404);
      // Streamed a page of messages at a time: a huge conversation is never held whole.
      const messages = deps.conversations.eachMessage(conversation.id);
      return c.body(textStream(chunks(conversation, messages)), 200, {
        "Content-Type": type,
        "Content-Disposition": `attachment; filename="radar-conversation-${id}.${extension}"`,
      });
    });
  }

  const remove = (c: Context) => {
    const id = parseId(c.req.param("id"));
    if (!id || !deps.conversations.delete(id)) {
      return renderFragment(c, <Notice kind="warning">No such conversation.</Notice>, 404);
    }
    return redirectAfterPost(c, "/history");
  };
  app.post("/history/:id{[0-9]+}/delete", remove);
  app.delete("/history/:id{[0-9]+}", remove);
  return app;
}
