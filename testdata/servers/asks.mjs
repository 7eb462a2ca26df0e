// A stdio MCP server, built on the TypeScript SDK v2's low-level Server,
// whose tools ask mcpeek things the ways real servers do:
//
//   bare_roots   asks roots/list without params, which the specification
//                allows (an absent params is an empty one): an input
//                request of 2026-07-28, a server→client request before (the
//                SDK's legacy shim sends the input request as one); it
//                answers with the roots it was given
//   bare_elicit  an elicitation/create input request without params
//   bare_sample  a sampling/createMessage input request without params
//   push_roots   asks roots/list as a request of its own, outside the
//                tool's input rounds: fine before 2026-07-28, refused by the
//                SDK itself from then on (a JSON-RPC error to the call)
//   push_roots_result
//                the same, with the refusal as an isError result, as
//                McpServer and FastMCP report a tool's failure
//
// Run with the @modelcontextprotocol/server folder in $MCPEEK_TS_SERVER;
// --http serves it over streamable HTTP on a free loopback port instead,
// and prints the endpoint's URL as its first line.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.env.MCPEEK_TS_SERVER;
if (!pkg) {
  console.error("asks: set MCPEEK_TS_SERVER to the @modelcontextprotocol/server folder");
  process.exit(2);
}
const need = createRequire(join(pkg, "package.json"));
const load = (spec) => import(pathToFileURL(need.resolve(spec)).href);
const { Server, ProtocolError } = await load("@modelcontextprotocol/server");
const { serveStdio } = await load("@modelcontextprotocol/server/stdio");

const bare = {
  bare_roots: "roots/list",
  bare_elicit: "elicitation/create",
  bare_sample: "sampling/createMessage",
};
const text = (t) => ({ content: [{ type: "text", text: t }] });
const rootsText = (r) => `roots: ${(r?.roots ?? []).map((root) => root.uri).join(" ") || "none"}`;

function build() {
  const server = new Server({ name: "asks", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", async () => ({
    tools: [...Object.keys(bare), "push_roots", "push_roots_result"].map((name) => ({ name, inputSchema: { type: "object" } })),
  }));
  server.setRequestHandler("tools/call", async (req, ctx) => {
    const name = req.params.name;
    if (name === "push_roots") return text(rootsText(await server.listRoots()));
    if (name === "push_roots_result") {
      try {
        return text(rootsText(await server.listRoots()));
      } catch (err) {
        return { isError: true, content: [{ type: "text", text: `Error executing tool ${name}: ${err.message}` }] };
      }
    }
    const method = bare[name];
    if (!method) throw new ProtocolError(-32602, `no tool ${name}`);
    const answer = ctx?.mcpReq?.inputResponses?.ask;
    if (answer === undefined) {
      return { resultType: "input_required", inputRequests: { ask: { method } } };
    }
    return text(method === "roots/list" ? rootsText(answer) : `answered: ${JSON.stringify(answer)}`);
  });
  return server;
}

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
