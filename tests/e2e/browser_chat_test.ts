/**
 * docs/browser.md's worked example through the real loop and the stand-in model over HTTP: in chat the
 * model opens a form, fills it from the user's words and clicks the submit button; the person is
 * asked once with the fields (the PIN hidden), says yes, and the form is posted once. The same
 * conversation's next message finds the browser still open.
 */
import { needing } from "../helpers/system_parts.ts";
import assert from "node:assert/strict";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import {
  chromiumPath,
  type SeenRequest,
  servePages,
  testUsersNetwork,
} from "../helpers/browser_pages.ts";
import { chatTurn, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";

const browserYaml = `llm:\n  retries: 0\nplugins:\n  enabled: false\n` +
  `browser:\n  executable: "${chromiumPath}"\n  allowed_hosts: ["127.0.0.1"]\n`;

const renewPage = `<!doctype html><title>Renew loans</title>
<h1>Renew your loans</h1>
<form method="post" action="/renew">
  <label>Card number <input name="card"></label>
  <label>PIN <input type="password" name="pin"></label>
  <button>Renew all</button>
</form>`;

const posts = (seen: SeenRequest[]) => seen.filter((request) => request.method !== "GET");

Deno.test(
  needing(["chromium"], {
    name: "chat: open, fill, click submit, one question with the fields, yes, posted once",
  }, async () => {
    const library = servePages({
      "/renew": (request, body) =>
        request.method === "POST"
          ? new Response(
            `<p>Renewed 3 books for card ${new URLSearchParams(body).get("card")}.</p>`,
            {
              headers: { "content-type": "text/html" },
            },
          )
          : new Response(renewPage, { headers: { "content-type": "text/html" } }),
    });
    await withFakeLlmRadar(
      { prefix: "radar-browser-chat-", usersNetwork: testUsersNetwork, yaml: browserYaml },
      async (radar, home) => {
        home.server.reply(
          ollamaToolCall("browser", { action: "open", url: `${library.origin}/renew` }),
          ollamaToolCall("browser", { action: "fill", values: { f1: "2231 8841", f2: "4411" } }),
          ollamaToolCall("browser", { action: "click", ref: "b1" }),
          ollamaText("Renewed all three books."),
        );
        const asked: string[] = [];
        const { id, result } = await chatTurn(
          radar,
          `On ${library.origin}/renew renew my books, card number 2231 8841, PIN 4411`,
          { confirm: (question) => (asked.push(question), Promise.resolve(true)) },
        );
        assert.equal(result.answer, "Renewed all three books.");
        assert.equal(asked.length, 1);
        assert.match(
          asked[0],
          /Submit on http:\/\/127\.0\.0\.1:\d+\/renew \(clicking "Renew all"\)/,
        );
        assert.match(asked[0], /Card number: 2231 8841/);
        assert.match(asked[0], /PIN: ••••••/);
        assert.doesNotMatch(asked[0], /4411/);
        const sent = posts(library.seen);
        assert.equal(sent.length, 1);
        assert.equal(new URLSearchParams(sent[0].body).get("pin"), "4411");
        assert.match(result.toolExecutions[2].result.text, /Renewed 3 books for card 2231 8841/);

        // The next message of the conversation reads the same page.
        home.server.reply(
          ollamaToolCall("browser", { action: "read" }),
          ollamaText("Still renewed."),
        );
        const next = await chatTurn(radar, "Does the page still say so? Check the browser.", {
          conversationId: id,
          confirm: () => Promise.resolve(false),
        });
        assert.match(next.result.toolExecutions[0].result.text, /Renewed 3 books/);
      },
    );
    await library.close();
  }),
);
