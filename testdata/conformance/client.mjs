#!/usr/bin/env node
// The conformance suite's client command for mcpeek.
//
// @modelcontextprotocol/conformance starts a scenario server and runs this
// file with the server's URL as the last argument, naming the scenario in
// MCP_CONFORMANCE_SCENARIO and the revision under test in
// MCP_CONFORMANCE_PROTOCOL_VERSION. Everything the scenarios expect of a
// client lives here; mcpeek is driven only through its headless
// subcommands, as any script would drive it. MCPEEK_BIN names the binary.
//
// In the auth scenarios mcpeek logs in as a person would: browser.mjs is
// its browser (--open-with), the token store is a fresh folder for the run
// (shared by its list and call processes, as a person's runs share one),
// and the scenario's context gives the pre-registered client.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const bin = process.env.MCPEEK_BIN || "mcpeek";

let failed = false;

// The client ID metadata document URL the suite's authorization servers
// know mcpeek by.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json";
const here = dirname(new URL(import.meta.url).pathname);
const auth = scenario.startsWith("auth/");
const authArgs = [];
const env = { ...process.env };
let configHome = null;
if (auth) {
  configHome = mkdtempSync(join(tmpdir(), "mcpeek-conformance-"));
  env.XDG_CONFIG_HOME = configHome;
  authArgs.push("--open-with", `${process.execPath} ${join(here, "browser.mjs")}`, "--client-metadata-url", clientMetadataURL);
  if (context.client_id) authArgs.push("--client-id", context.client_id);
  if (context.client_secret) env.MCPEEK_CLIENT_SECRET = context.client_secret;
}

// mcpeek runs one subcommand against the scenario's server, pinned to the
// revision under test, and returns its parsed JSON output (or null).
function mcpeek(...args) {
  const argv = [...args, ...authArgs, "--protocol", revision, "--timeout", "20s", url];
  const run = spawnSync(bin, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env });
  if (run.error) throw run.error;
  // 0 is success and 1 a tool result with isError: both are answers the
  // scenario judges. Anything else is mcpeek failing to do the job.
  if (run.status !== 0 && run.status !== 1) {
    console.error(`mcpeek ${args.join(" ")}: exit ${run.status}`);
    failed = true;
    return null;
  }
  return run.stdout.trim() === "" ? null : JSON.parse(run.stdout);
}

// sample fills each property of an input schema with a value of its type,
// preferring the schema's own default or first enum member.
function sample(schema) {
  const args = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (prop.default !== undefined) args[name] = prop.default;
    else if (Array.isArray(prop.enum) && prop.enum.length > 0) args[name] = prop.enum[0];
    else {
      const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
      args[name] = { number: 1, integer: 1, boolean: true, object: {}, array: [] }[type] ?? "x";
    }
  }
  return args;
}

function call(name, args) {
  return mcpeek("call", name, "--args", JSON.stringify(args), "--on-elicit", "accept-defaults");
}

function listTools() {
  return mcpeek("list", "tools")?.tools ?? [];
}

switch (scenario) {
  case "http-custom-headers":
    // The scenario names the calls and their argument values; the listing
    // that lets mcpeek mirror x-mcp-header arguments happens inside call.
    for (const c of context.toolCalls ?? []) call(c.name, c.arguments ?? {});
    break;

  case "json-schema-2020-12-preservation": {
    // Hand the focal tool's input schema, as mcpeek listed it, back to the
    // echo tool, so the scenario sees what survived.
    const tools = listTools();
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal) {
      console.error("json_schema_2020_12_tool was not listed");
      failed = true;
      break;
    }
    call("json_schema_echo", { schema: focal.inputSchema });
    break;
  }

  case "json-schema-ref-no-deref":
    // The scenario serves only the listing, whose schema holds a $ref to a
    // network URI that a client must not fetch.
    listTools();
    break;

  default:
    // Every other scenario wants the ordinary client: list the tools, call
    // each with plausible arguments, accept elicitations with their
    // defaults.
    for (const tool of listTools()) call(tool.name, sample(tool.inputSchema));
}

if (configHome) rmSync(configHome, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
