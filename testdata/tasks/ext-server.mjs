// A stdio MCP server of the 2026-07-28 revision that offers the tasks
// extension (io.modelcontextprotocol/tasks), built on the TypeScript SDK's
// low-level Server, for mcpeek's tests of tasks in that era. The SDK has
// no tasks runtime, so the tasks live here:
//
//   greet           never a task
//   confirm_delete  only a task: it asks (an elicitation, mid-task) whether
//                   to delete the path, and reports what it did; a request
//                   that does not declare the extension gets -32021
//   slow_count      a task that counts to `to`, a step every 200 ms, until
//                   it ends or is cancelled
//   ask_first       asks a name before any task exists (input_required with
//                   a requestState), then greets in a task
//   reuse_key       a task that asks under the key "q" twice, for two
//                   different questions (a server mcpeek must not follow)
//   fail_job        a task that fails with an error
//   needs_sampling  a task that asks for a model's reply (sampling)
//
// Each task cancelled is said on stderr ("ext-server: task … cancelled").
//
// Run with the @modelcontextprotocol/server folder in $MCPEEK_TS_SERVER;
// --http serves it over streamable HTTP.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.env.MCPEEK_TS_SERVER;
if (!pkg) {
  console.error("ext-server: set MCPEEK_TS_SERVER to the @modelcontextprotocol/server folder");
  process.exit(2);
}
const need = createRequire(join(pkg, "package.json"));
const load = (spec) => import(pathToFileURL(need.resolve(spec)).href);
const { Server, ProtocolError } = await load("@modelcontextprotocol/server");
const { serveStdio } = await load("@modelcontextprotocol/server/stdio");
const z = await load("zod/v4");

const EXT = "io.modelcontextprotocol/tasks";
const declared = (ctx) => Boolean(ctx?.mcpReq?.envelope?.["io.modelcontextprotocol/clientCapabilities"]?.extensions?.[EXT]);
const mustDeclare = (ctx) => {
  if (!declared(ctx)) {
    throw new ProtocolError(-32021, "this needs the tasks extension", { requiredCapabilities: { extensions: { [EXT]: {} } } });
  }
};
const stamp = () => new Date().toISOString();
const text = (s) => ({ content: [{ type: "text", text: s }] });

const tasks = new Map(); // taskId → { task, asked: {key: request}, waiting: {key: resolve} }

// begin starts work as a task and returns the tools/call result that
// announces it.
function begin(work) {
  const entry = {
    task: { taskId: randomUUID(), status: "working", createdAt: stamp(), lastUpdatedAt: stamp(), ttlMs: 300000, pollIntervalMs: 100 },
    asked: {},
    waiting: {},
  };
  tasks.set(entry.task.taskId, entry);
  const set = (fields) => Object.assign(entry.task, fields, { lastUpdatedAt: stamp() });
  const ask = (key, request) => new Promise((resolve) => {
    entry.asked[key] = request;
    entry.waiting[key] = resolve;
    set({ status: "input_required", statusMessage: "waiting for an answer" });
  });
  const live = () => entry.task.status !== "cancelled";
  work({ ask, live, say: (m) => live() && set({ statusMessage: m }) }).then(
    (result) => live() && set({ status: "completed", statusMessage: "done", result }),
    (err) => live() && set({ status: "failed", error: { code: -32603, message: String(err?.message ?? err) } }),
  );
  return { resultType: "task", ...entry.task };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const object = (properties, required = []) => ({ type: "object", properties, required });
const tools = [
  { name: "greet", description: "Greets at once", inputSchema: object({ name: { type: "string" } }) },
  { name: "confirm_delete", description: "Deletes a path once you confirm (a task)", inputSchema: object({ path: { type: "string" } }, ["path"]) },
  { name: "slow_count", description: "Counts slowly (a task)", inputSchema: object({ to: { type: "integer" } }) },
  { name: "ask_first", description: "Asks your name, then greets in a task", inputSchema: object({}) },
  { name: "reuse_key", description: "Asks two questions under one key (a task)", inputSchema: object({}) },
  { name: "fail_job", description: "Fails (a task)", inputSchema: object({}) },
  { name: "needs_sampling", description: "Asks a model (a task)", inputSchema: object({}) },
];

const yesNo = (message) => ({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: object({ ok: { type: "boolean" } }, ["ok"]) } });

function build() {
  const server = new Server({ name: "tasks-ext", version: "1.0.0" }, { capabilities: { tools: {}, extensions: { [EXT]: {} } } });
  server.setRequestHandler("tools/list", async () => ({ tools }));
  server.setRequestHandler("tools/call", async (req, ctx) => {
    const args = req.params.arguments ?? {};
    switch (req.params.name) {
      case "greet":
        return text(`hello ${args.name ?? "you"}`);
      case "confirm_delete":
        mustDeclare(ctx);
        return begin(async ({ ask }) => {
          await sleep(150);
          const answer = await ask("confirm", {
            method: "elicitation/create",
            params: { mode: "form", message: `Delete ${args.path}?`, requestedSchema: object({ ok: { type: "boolean", title: "Delete it" } }, ["ok"]) },
          });
          if (answer?.action !== "accept") return text(`kept ${args.path} (${answer?.action})`);
          return text(answer.content?.ok ? `deleted ${args.path}` : `kept ${args.path}`);
        });
      case "slow_count":
        mustDeclare(ctx);
        return begin(async ({ live, say }) => {
          const to = args.to ?? 3;
          for (let i = 1; i <= to && live(); i++) {
            await sleep(200);
            say(`counted ${i} of ${to}`);
          }
          return text(`counted to ${to}`);
        });
      case "reuse_key":
        mustDeclare(ctx);
        return begin(async ({ ask }) => {
          await ask("q", yesNo("First?"));
          await ask("q", yesNo("Second, under the same key?"));
          return text("asked twice");
        });
      case "fail_job":
        mustDeclare(ctx);
        return begin(async () => {
          await sleep(100);
          throw new Error("the job broke");
        });
      case "needs_sampling":
        mustDeclare(ctx);
        return begin(async ({ ask }) => {
          const reply = await ask("model", { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 10 } });
          return text(`the model said ${reply?.content?.text}`);
        });
      case "ask_first": {
        const name = ctx?.mcpReq?.inputResponses?.name;
        if (!name) {
          return {
            resultType: "input_required",
            inputRequests: { name: { method: "elicitation/create", params: { mode: "form", message: "Your name?", requestedSchema: object({ name: { type: "string" } }, ["name"]) } } },
            requestState: "asked-name",
          };
        }
        if (ctx.mcpReq.requestState() !== "asked-name") {
          throw new ProtocolError(-32602, "ask_first: the requestState did not come back");
        }
        mustDeclare(ctx);
        const who = name.action === "accept" ? name.content?.name : "nobody";
        return begin(async () => text(`hello ${who}, in a task`));
      }
    }
    throw new ProtocolError(-32602, `no tool ${req.params.name}`);
  });
  const byId = { params: z.looseObject({ taskId: z.string() }) };
  const find = (taskId) => {
    const entry = tasks.get(taskId);
    if (!entry) throw new ProtocolError(-32602, `no task ${taskId}`);
    return entry;
  };
  server.setRequestHandler("tasks/get", byId, async ({ taskId }, ctx) => {
    mustDeclare(ctx);
    const entry = find(taskId);
    const out = { ...entry.task };
    if (entry.task.status === "input_required") out.inputRequests = { ...entry.asked };
    return out;
  });
  server.setRequestHandler("tasks/update", byId, async ({ taskId }, ctx) => {
    mustDeclare(ctx);
    const entry = find(taskId);
    for (const [key, answer] of Object.entries(ctx.mcpReq.inputResponses ?? {})) {
      const resolve = entry.waiting[key];
      if (!resolve) continue;
      delete entry.waiting[key];
      delete entry.asked[key];
      resolve(answer);
    }
    if (entry.task.status === "input_required" && Object.keys(entry.asked).length === 0) {
      Object.assign(entry.task, { status: "working", statusMessage: "answered", lastUpdatedAt: stamp() });
    }
    return {};
  });
  server.setRequestHandler("tasks/cancel", byId, async ({ taskId }, ctx) => {
    mustDeclare(ctx);
    const entry = find(taskId);
    if (!["completed", "failed", "cancelled"].includes(entry.task.status)) {
      Object.assign(entry.task, { status: "cancelled", statusMessage: "cancelled by the client", lastUpdatedAt: stamp() });
      console.error(`ext-server: task ${taskId} cancelled`);
    }
    return {};
  });
  return server;
}

// --http serves streamable HTTP on a free loopback port instead, and
// prints the endpoint's URL as its first line.
if (process.argv.includes("--http")) {
  const { createServer } = await import("node:http");
  const { createMcpHandler } = await load("@modelcontextprotocol/server");
  const handler = createMcpHandler(() => build());
  const http = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = ["GET", "HEAD"].includes(req.method) ? undefined : Buffer.concat(chunks);
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        for await (const chunk of response.body) res.write(chunk);
      }
      res.end();
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${http.address().port}/mcp`));
} else {
  serveStdio(() => build());
}
