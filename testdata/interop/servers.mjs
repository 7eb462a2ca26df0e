#!/usr/bin/env node
// Checks mcpeek's headless subcommands against servers written elsewhere:
//
//   - @modelcontextprotocol/server-filesystem, started without directories,
//     given one with --root (through roots-gate.mjs): listing, calls, the
//     server's use of the client's roots;
//   - @modelcontextprotocol/server-memory: listing, create_entities then
//     read_graph across two runs, its resource read and a subscription;
//   - testdata/mcpgo, a mark3labs/mcp-go server, over stdio and streamable
//     HTTP: form elicitation and sampling answered from an answers file, in
//     both protocol eras.
//
// Prints one line per check, "<check>\t<pass|fail>\t<detail>", and exits
// non-zero when any check fails.
//
// Environment: MCPEEK_BIN (the mcpeek binary), MCPEEK_SERVER_FILESYSTEM and
// MCPEEK_SERVER_MEMORY (the servers' bin scripts), MCPEEK_MCPGO (the built
// testdata/mcpgo server).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { bin, check, failures, freePort, mcpeek, report, startServer, texts } from "./lib.mjs";

const here = dirname(new URL(import.meta.url).pathname);
const work = realpathSync(mkdtempSync(join(tmpdir(), "mcpeek-interop-")));

// needs reports a section's missing environment variable as a failure and
// says whether the section can run.
function needs(section, variable) {
  if (process.env[variable]) return true;
  report(`${section}/run`, false, `${variable} is not set`);
  return false;
}

function filesystem(server) {
  const t = (name) => `filesystem/stdio/${name}`;
  const root = join(work, "fs-root");
  mkdirSync(join(root, "sub"), { recursive: true });
  const note = "héllo from mcpeek\nsecond line\n";
  writeFileSync(join(root, "note.txt"), note);
  writeFileSync(join(work, "outside.txt"), "not yours");
  const target = ["--root", root, "--", join(here, "roots-gate.mjs"), server];

  check(t("caps fall back to 2025-11-25"), () => {
    // The server answers server/discover with "Method not found": auto
    // must fall back to initialize.
    const r = mcpeek(target, "caps");
    const ok = r.code === 0 && r.out?.protocolVersion === "2025-11-25" &&
      r.out.server?.name === "secure-filesystem-server" && r.out.client?.roots !== undefined;
    return [ok, ok ? `${r.out.server.name} ${r.out.server.version}, protocol ${r.out.protocolVersion}` : r.stderr || r.stdout];
  });

  check(t("list tools"), () => {
    const r = mcpeek(target, "list", "tools");
    const names = (r.out?.tools ?? []).map((x) => x.name);
    const want = ["list_allowed_directories", "list_directory", "read_text_file", "write_file"];
    const missing = want.filter((n) => !names.includes(n));
    return [r.code === 0 && missing.length === 0, missing.length ? `missing ${missing}: ${r.stderr}` : `${names.length} tools`];
  });

  check(t("the server takes --root as its directory"), () => {
    const r = mcpeek(target, "call", "list_allowed_directories");
    const text = texts(r.out);
    return [r.code === 0 && text.split("\n").includes(root), text || r.stderr];
  });

  check(t("call list_directory on the root"), () => {
    const r = mcpeek(target, "call", "list_directory", "--args", JSON.stringify({ path: root }));
    const lines = texts(r.out).split("\n");
    const ok = r.code === 0 && lines.includes("[FILE] note.txt") && lines.includes("[DIR] sub");
    return [ok, texts(r.out) || r.stderr];
  });

  check(t("call read_text_file"), () => {
    const r = mcpeek(target, "call", "read_text_file", "--args", JSON.stringify({ path: join(root, "note.txt") }));
    return [r.code === 0 && texts(r.out) === note, texts(r.out) || r.stderr];
  });

  check(t("a file outside the root is refused (exit 1)"), () => {
    const r = mcpeek(target, "call", "read_text_file", "--args", JSON.stringify({ path: join(work, "outside.txt") }));
    const ok = r.code === 1 && r.out?.isError === true && /access denied/i.test(texts(r.out));
    return [ok, `exit ${r.code}: ${texts(r.out) || r.stderr}`];
  });
}

function memory(server) {
  const t = (name) => `memory/stdio/${name}`;
  const uri = "memory://knowledge-graph";
  const target = ["-e", `MEMORY_FILE_PATH=${join(work, "memory.jsonl")}`, "--", server];
  const entity = { name: "Ada Lovelace", entityType: "person", observations: ["wrote the first program", "née Byron"] };

  check(t("caps"), () => {
    const r = mcpeek(target, "caps");
    const s = r.out?.server;
    const ok = r.code === 0 && s?.capabilities?.tools && s.capabilities.resources?.subscribe === true;
    return [ok, ok ? `${s.name} ${s.version}, protocol ${r.out.protocolVersion}` : r.stderr || r.stdout];
  });

  check(t("list tools"), () => {
    const r = mcpeek(target, "list", "tools");
    const names = (r.out?.tools ?? []).map((x) => x.name);
    const want = ["create_entities", "create_relations", "read_graph", "search_nodes"];
    const missing = want.filter((n) => !names.includes(n));
    return [r.code === 0 && missing.length === 0, missing.length ? `missing ${missing}: ${r.stderr}` : `${names.length} tools`];
  });

  check(t("list resources"), () => {
    const r = mcpeek(target, "list", "resources");
    const uris = (r.out?.resources ?? []).map((x) => x.uri);
    return [r.code === 0 && uris.includes(uri), uris.join(", ") || r.stderr];
  });

  check(t("call create_entities"), () => {
    const r = mcpeek(target, "call", "create_entities", "--args", JSON.stringify({ entities: [entity] }));
    return [r.code === 0 && texts(r.out).includes("née Byron"), texts(r.out) || r.stderr];
  });

  // Each run starts the server anew: what read_graph returns came through
  // its file, written by the run before.
  check(t("call read_graph returns the entity"), () => {
    const r = mcpeek(target, "call", "read_graph");
    const graph = JSON.parse(texts(r.out) || "{}");
    const ok = r.code === 0 && graph.entities?.some((e) => isDeepStrictEqual(e, entity));
    return [ok, texts(r.out) || r.stderr];
  });

  check(t("subscribed resource updates arrive"), () => {
    const relation = { from: "Ada Lovelace", to: "Ada Lovelace", relationType: "is" };
    const r = mcpeek(target, "call", "create_relations", "--args", JSON.stringify({ relations: [relation] }),
      "--subscribe", uri, "--updates", "1");
    const ok = r.code === 0 && r.stderr.includes(`mcpeek: resource updated: ${uri}`);
    return [ok, r.stderr.split("\n").at(-1)];
  });

  check(t("read the knowledge graph resource"), () => {
    const r = mcpeek(target, "read", uri);
    const content = (r.out?.contents ?? []).find((c) => c.uri === uri);
    const graph = JSON.parse(content?.text ?? "{}");
    const ok = r.code === 0 && graph.entities?.some((e) => e.name === entity.name);
    return [ok, content?.text || r.stderr || r.stdout];
  });
}

function mcpgo(transport, server) {
  const answers = join(here, "mcpgo-answers.json");
  const entries = JSON.parse(readFileSync(answers, "utf8"));
  const profile = entries[0].content;
  const reply = entries[1].result;
  for (const [era, revision] of [["legacy", "2025-11-25"], ["modern", "2026-07-28"]]) {
    const t = (name) => `mcpgo/${transport}/${era}/${name}`;
    const target = ["--protocol", era, ...server];

    check(t("caps"), () => {
      const r = mcpeek(target, "caps");
      const ok = r.code === 0 && r.out?.protocolVersion === revision && r.out.server?.name === "mcpeek-interop-mcpgo";
      return [ok, ok ? `protocol ${r.out.protocolVersion}` : r.stderr || r.stdout];
    });

    check(t("form elicitation accepted from answers file"), () => {
      // The elicitation log says which era's way the request came: a
      // server-initiated elicitation/create, or an input request.
      const log = join(work, `mcpgo-${transport}-${era}.jsonl`);
      const r = mcpeek(target, "call", "register", "--answers", answers, "--elicit-log", log);
      const got = r.out?.structuredContent;
      const record = JSON.parse(readFileSync(log, "utf8").split("\n")[0] || "{}");
      const ok = r.code === 0 && got?.action === "accept" && isDeepStrictEqual(got.content, profile) &&
        got.requestState === "step=profile" && record.kind === "elicitation" && record.era === revision;
      return [ok, `${JSON.stringify(got) || r.stderr}; logged era ${record.era}`];
    });

    check(t("form elicitation declined"), () => {
      const r = mcpeek(target, "call", "register", "--on-elicit", "decline");
      const got = r.out?.structuredContent;
      return [r.code === 0 && got?.action === "decline" && got.content === undefined, JSON.stringify(got) || r.stderr];
    });

    check(t("sampling answered from answers file"), () => {
      const r = mcpeek(target, "call", "ask_model", "--args", JSON.stringify({ question: "What is the capital of France?" }),
        "--answers", answers);
      const got = r.out?.structuredContent;
      const ok = r.code === 0 && got?.text === reply.content.text && got.model === reply.model && got.role === "assistant";
      return [ok, JSON.stringify(got) || r.stderr];
    });
  }

  check(`mcpgo/${transport}/auto chooses 2026-07-28`, () => {
    const r = mcpeek(server, "caps");
    return [r.code === 0 && r.out?.protocolVersion === "2026-07-28", r.out?.protocolVersion || r.stderr];
  });
}

try {
  if (needs("filesystem", "MCPEEK_SERVER_FILESYSTEM")) filesystem(process.env.MCPEEK_SERVER_FILESYSTEM);
  if (needs("memory", "MCPEEK_SERVER_MEMORY")) memory(process.env.MCPEEK_SERVER_MEMORY);
  if (needs("mcpgo", "MCPEEK_MCPGO")) {
    const server = process.env.MCPEEK_MCPGO;
    mcpgo("stdio", ["--", server]);
    let child;
    try {
      const addr = `127.0.0.1:${await freePort()}`;
      child = await startServer(server, ["-http", addr], {}, "listening on");
      mcpgo("http", [`http://${addr}/mcp`]);
    } catch (e) {
      report("mcpgo/http/start", false, e.message);
    } finally {
      child?.kill();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failures() > 0 ? 1 : 0);
