// A stdio MCP server, built on the TypeScript SDK's experimental tasks,
// for mcpeek's tests of tasks a tool allows but does not require: slow_sum
// runs as a task when the client asks (taskSupport "optional"), else the
// SDK runs it to the end within the call; plain_echo never runs as one.
// Run with the SDK's folder in $MCPEEK_TS_SDK.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const sdk = process.env.MCPEEK_TS_SDK;
if (!sdk) {
  console.error("optional-server: set MCPEEK_TS_SDK to the @modelcontextprotocol/sdk folder");
  process.exit(2);
}
const from = (p) => import(pathToFileURL(join(sdk, "dist", "esm", p)).href);
const { McpServer } = await from("server/mcp.js");
const { StdioServerTransport } = await from("server/stdio.js");
const { InMemoryTaskStore, InMemoryTaskMessageQueue } = await from("experimental/tasks/stores/in-memory.js");
const { z } = await import(pathToFileURL(createRequire(join(sdk, "package.json")).resolve("zod")).href);

const server = new McpServer({ name: "optional-tasks", version: "1.0.0" }, {
  capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, list: {}, cancel: {} } },
  taskStore: new InMemoryTaskStore(),
  taskMessageQueue: new InMemoryTaskMessageQueue(),
});

server.experimental.tasks.registerToolTask("slow_sum", {
  description: "Adds two numbers after a moment; may run as a task",
  inputSchema: { a: z.number(), b: z.number() },
  execution: { taskSupport: "optional" },
}, {
  async createTask({ a, b }, { taskStore, taskRequestedTtl }) {
    const task = await taskStore.createTask({ ttl: taskRequestedTtl, pollInterval: 100 });
    setTimeout(() => {
      taskStore.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: `sum ${a + b}` }] });
    }, 300);
    return { task };
  },
  async getTask(_args, { taskId, taskStore }) { return await taskStore.getTask(taskId); },
  async getTaskResult(_args, { taskId, taskStore }) { return await taskStore.getTaskResult(taskId); },
});

server.registerTool("plain_echo", { description: "Echoes at once", inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: "text", text }] }));

await server.connect(new StdioServerTransport());
