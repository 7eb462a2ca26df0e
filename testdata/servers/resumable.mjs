// A streamable HTTP MCP server on the TypeScript SDK (v1) with an event
// store, as the SDK's examples run it: with resumability, each event stream
// starts with a priming event (an id and an empty data) before the
// messages. Its tools:
//
//   echo       answers with its text
//   late_logs  answers, then sends four log messages (logger "late") on the
//              standalone GET stream, 30 ms after its result was written
//
// Run with the @modelcontextprotocol/sdk folder in $MCPEEK_TS_SDK; it
// serves on a free loopback port and prints the endpoint's URL as its first
// line.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const sdk = process.env.MCPEEK_TS_SDK;
if (!sdk) {
  console.error("resumable: set MCPEEK_TS_SDK to the @modelcontextprotocol/sdk folder");
  process.exit(2);
}
const from = (p) => import(pathToFileURL(join(sdk, "dist", "esm", p)).href);
const { McpServer } = await from("server/mcp.js");
const { StreamableHTTPServerTransport } = await from("server/streamableHttp.js");
const { InMemoryEventStore } = await from("examples/shared/inMemoryEventStore.js");
const { isInitializeRequest } = await from("types.js");
const { z } = await import(pathToFileURL(createRequire(join(sdk, "package.json")).resolve("zod")).href);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function connectSession(transports) {
  const server = new McpServer({ name: "resumable", version: "1.0.0" }, { capabilities: { logging: {} } });
  const late = new Set(); // late_logs calls whose result is not yet written
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore: new InMemoryEventStore(),
    onsessioninitialized: (id) => transports.set(id, transport),
  });
  transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
  // The standalone stream opens when the client's GET has been taken in.
  const standaloneOpen = async () => {
    for (let i = 0; i < 1000 && !transport._webStandardTransport._streamMapping.has("_GET_stream"); i++) await sleep(5);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if ("result" in message && late.delete(message.id)) {
      await standaloneOpen();
      await sleep(30); // well after the result: the client has it, and may be closing
      for (let i = 1; i <= 4; i++) {
        await server.sendLoggingMessage({ level: "info", logger: "late", data: `late line ${i}` });
      }
    }
  };
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("late_logs", { inputSchema: {} }, async (_args, extra) => {
    late.add(extra.requestId);
    return { content: [{ type: "text", text: "done; four log lines follow" }] };
  });
  return server.connect(transport).then(() => transport);
}

const transports = new Map();
const http = createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = req.headers["mcp-session-id"];
    let transport = id && transports.get(id);
    if (!transport && req.method === "POST" && !id && isInitializeRequest(body)) {
      transport = await connectSession(transports);
    }
    if (!transport) {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "no valid session" }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(err));
  }
});
http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${http.address().port}/mcp`));
