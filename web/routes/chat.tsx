/**
 * `/chat`: talk to Radar through the same agent loop as the CLI. `POST /chat/send` stores the
 * message and starts a background run; its fragment polls `GET /chat/runs/:id` while the model
 * works (activity, tool calls as they finish) and can be cancelled with
 * `POST /chat/runs/:id/cancel`; a tool asking for confirmation is answered with
 * `POST /chat/runs/:id/confirm`. The first message puts `?c=ID` into the address bar, so a
 * reload continues the conversation. `POST /chat/new` starts a fresh conversation.
 */
import { Hono } from "hono";
import type { RouteContext } from "../app.tsx";
import {
  field,
  isHtmx,
  parseId,
  redirectAfterPost,
  renderFragment,
  renderPage,
  warningFragment,
} from "../render.tsx";
import { ChatRunView } from "../views/chat_run.tsx";
import { Messages, UserMessage } from "../views/conversation.tsx";
import { Notice } from "../views/layout.tsx";

const maxMessageChars = 20_000;

function ChatForm(props: { conversationId?: number }) {
  return (
    <form
      id="chat-form"
      method="post"
      action="/chat/send"
      hx-post="/chat/send"
      hx-target="#chat-log"
      hx-swap="beforeend"
      hx-disabled-elt="find button[type=submit]"
      data-reset
    >
      <input
        type="hidden"
        name="conversation"
        id="chat-conversation"
        value={props.conversationId ? String(props.conversationId) : ""}
      />
      <textarea
        name="message"
        rows={3}
        required
        maxlength={maxMessageChars}
        placeholder="Ask Radar… (Ctrl+Enter sends)"
      >
      </textarea>
      <div class="row">
        <button type="submit">Send</button>
      </div>
    </form>
  );
}

/** Chat routes. */
export function chatRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { deps, chatRuns } = context;

  app.get("/chat", (c) => {
    const requested = parseId(c.req.query("c"));
    const conversation = requested ? deps.conversations.conversation(requested) : undefined;
    const active = conversation ? chatRuns.activeFor(conversation.id) : undefined;
    const stored = conversation ? [...deps.conversations.eachMessage(conversation.id)] : [];
    // A running answer's messages are shown by its run view, not twice.
    const messages = active ? stored.slice(0, active.priorMessageCount) : stored;
    return renderPage(
      c,
      context,
      {
        title: conversation ? `Chat: ${conversation.title || "untitled"}` : "Chat",
        active: "/chat",
      },
      <>
        <div class="row toolbar">
          <form method="post" action="/chat/new">
            <button type="submit" class="secondary">New chat</button>
          </form>
          {conversation ? <a href={`/history/${conversation.id}`}>open in history</a> : null}
        </div>
        {requested && !conversation
          ? <Notice kind="warning">No conversation {requested}; this is a new chat.</Notice>
          : null}
        <div id="chat-log" class="chat-log" data-scroll-end>
          <Messages
            messages={messages}
            outcomes={conversation ? deps.toolOutcomes?.(conversation.id) : undefined}
            timeZone={context.timeZone()}
          />
          {active
            ? (
              <>
                <UserMessage content={active.userMessage} />
                <ChatRunView run={active} />
              </>
            )
            : null}
        </div>
        <ChatForm conversationId={conversation?.id} />
      </>,
    );
  });

  app.post("/chat/new", (c) => redirectAfterPost(c, "/chat"));

  app.post("/chat/send", async (c) => {
    const form = await c.req.parseBody();
    const message = field(form, "message");
    if (!message) return warningFragment(c, "Type a message first.", 422);
    if (message.length > maxMessageChars) {
      return warningFragment(c, `The message is longer than ${maxMessageChars} characters.`, 422);
    }
    let conversationId = parseId(field(form, "conversation"));
    if (conversationId && !deps.conversations.conversation(conversationId)) {
      conversationId = undefined;
    }
    if (conversationId && chatRuns.activeFor(conversationId)) {
      return warningFragment(c, "Radar is still answering; wait or cancel first.", 422);
    }
    conversationId ??= deps.conversations.createConversation(
      "chat",
      message.slice(0, 80),
      deps.clock.now(),
    );
    const run = chatRuns.start(
      conversationId,
      message,
      deps.conversations.conversation(conversationId)?.messageCount ?? 0,
    );
    if (!isHtmx(c)) return c.redirect(`/chat?c=${conversationId}`, 303);
    c.header("HX-Replace-Url", `/chat?c=${conversationId}`);
    return renderFragment(
      c,
      <>
        <UserMessage content={message} />
        <ChatRunView run={run} />
        <input
          type="hidden"
          name="conversation"
          id="chat-conversation"
          value={String(conversationId)}
          hx-swap-oob="true"
        />
      </>,
    );
  });

  app.get("/chat/runs/:id", (c) => {
    const run = chatRuns.get(c.req.param("id"));
    if (!run) return warningFragment(c, "This run is no longer tracked; reload the page.", 404);
    return renderFragment(c, <ChatRunView run={run} now={deps.clock.now()} />);
  });

  app.post("/chat/runs/:id/cancel", (c) => {
    const run = chatRuns.get(c.req.param("id"));
    if (!run) return warningFragment(c, "Unknown run.", 404);
    chatRuns.cancel(run.id);
    return renderFragment(c, <ChatRunView run={run} now={deps.clock.now()} />);
  });

  app.post("/chat/runs/:id/confirm", async (c) => {
    const run = chatRuns.get(c.req.param("id"));
    if (!run) return warningFragment(c, "Unknown run.", 404);
    const form = await c.req.parseBody();
    const answer = field(form, "answer");
    if (answer !== "allow" && answer !== "deny") {
      return warningFragment(c, "Answer allow or deny.", 422);
    }
    // A stale answer (already decided, timed out) changes nothing: the page gets the run as is.
    chatRuns.answer(run.id, field(form, "confirmation"), answer === "allow");
    if (!isHtmx(c)) return c.redirect(`/chat?c=${run.conversationId}`, 303);
    return renderFragment(c, <ChatRunView run={run} now={deps.clock.now()} />);
  });
  return app;
}
