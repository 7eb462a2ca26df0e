#!/usr/bin/env node
// Checks mcpeek's headless subcommands against the reference server
// @modelcontextprotocol/server-everything, over stdio and over streamable
// HTTP: listing, calls, elicitation, sampling, roots, progress, logging,
// resource subscriptions, completions and tasks. Prints one line per check, "<check>\t<pass|fail>\t<detail>", and
// exits non-zero when any check fails.
//
// Environment: MCPEEK_BIN (the mcpeek binary), MCPEEK_SERVER_EVERYTHING (the
// server's bin script).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { check, failures, freePort, mcpeek, report, startServer, texts } from "./lib.mjs";

const here = dirname(new URL(import.meta.url).pathname);
const everything = process.env.MCPEEK_SERVER_EVERYTHING;
if (!everything) {
  console.error("MCPEEK_SERVER_EVERYTHING is not set");
  process.exit(2);
}
const answersFile = join(here, "everything-answers.json");
const answered = JSON.parse(readFileSync(answersFile, "utf8"))[0].content;

const rawResult = (out) => JSON.parse(texts(out).split("Raw result:")[1]);

function checks(transport, target) {
  const t = (name) => `everything/${transport}/${name}`;

  check(t("caps"), () => {
    const r = mcpeek(target, "caps");
    const s = r.out?.server;
    const ok = r.code === 0 && s?.name === "mcp-servers/everything" &&
      s.capabilities?.tools && s.capabilities?.resources && s.capabilities?.prompts &&
      r.out.client?.elicitation?.form !== undefined;
    return [ok, ok ? `${s.name} ${s.version}, protocol ${r.out.protocolVersion}` : r.stderr || JSON.stringify(r.out)];
  });

  check(t("list tools"), () => {
    const r = mcpeek(target, "list", "tools");
    const names = (r.out?.tools ?? []).map((x) => x.name);
    const want = ["echo", "get-sum", "get-structured-content", "trigger-elicitation-request", "trigger-url-elicitation"];
    const missing = want.filter((n) => !names.includes(n));
    return [r.code === 0 && missing.length === 0, missing.length ? `missing ${missing}` : `${names.length} tools`];
  });

  check(t("list resources"), () => {
    const r = mcpeek(target, "list", "resources");
    const n = (r.out?.resources ?? []).length;
    const templates = (r.out?.resourceTemplates ?? []).map((x) => x.uriTemplate);
    const ok = r.code === 0 && n > 0 && templates.includes("demo://resource/dynamic/text/{resourceId}");
    return [ok, `${n} resources, ${templates.length} templates`];
  });

  check(t("list prompts"), () => {
    const r = mcpeek(target, "list", "prompts");
    const names = (r.out?.prompts ?? []).map((x) => x.name);
    return [r.code === 0 && names.includes("simple-prompt") && names.includes("args-prompt"), names.join(", ")];
  });

  check(t("call echo"), () => {
    const r = mcpeek(target, "call", "echo", "--args", JSON.stringify({ message: "héllo, mcpeek" }));
    return [r.code === 0 && texts(r.out) === "Echo: héllo, mcpeek", texts(r.out) || r.stderr];
  });

  check(t("call get-sum"), () => {
    const r = mcpeek(target, "call", "get-sum", "--args", '{"a": 19, "b": 23.5}');
    return [r.code === 0 && /\b42\.5\b/.test(texts(r.out)), texts(r.out) || r.stderr];
  });

  check(t("elicitation accepted from answers file"), () => {
    const r = mcpeek(target, "call", "trigger-elicitation-request", "--answers", answersFile);
    const raw = r.code === 0 ? rawResult(r.out) : null;
    const ok = raw?.action === "accept" && isDeepStrictEqual(raw.content, answered);
    return [ok, ok ? `${Object.keys(raw.content).length} fields round-tripped` : JSON.stringify(raw) || r.stderr];
  });

  for (const action of ["decline", "cancel"]) {
    check(t(`elicitation answered ${action}`), () => {
      const r = mcpeek(target, "call", "trigger-elicitation-request", "--on-elicit", action);
      const raw = r.code === 0 ? rawResult(r.out) : null;
      const ok = raw?.action === action && raw.content === undefined;
      return [ok, JSON.stringify(raw) || r.stderr];
    });
  }

  check(t("url elicitation consented"), () => {
    const url = "https://example.org/consent?step=1";
    const r = mcpeek(target, "call", "trigger-url-elicitation", "--args", JSON.stringify({ url }),
      "--on-elicit", "accept-defaults");
    const text = texts(r.out);
    const ok = r.code === 0 && text.includes("User completed the URL elicitation flow") && text.includes(`URL: ${url}`);
    return [ok, text.split("\n")[0] || r.stderr];
  });

  check(t("sampling answered from answers file"), () => {
    const r = mcpeek(target, "call", "trigger-sampling-request", "--args",
      JSON.stringify({ prompt: "What is the capital of France?", maxTokens: 50 }), "--answers", answersFile);
    const text = texts(r.out);
    const ok = r.code === 0 && text.includes("Paris, says mcpeek's answers file.") && text.includes('"model": "mcpeek-interop"');
    return [ok, text.replace(/\s+/g, " ").slice(0, 120) || r.stderr];
  });

  check(t("sampling rejected without an answer"), () => {
    const r = mcpeek(target, "call", "trigger-sampling-request", "--args", JSON.stringify({ prompt: "Anything?" }));
    const ok = r.stderr.includes("sampling request rejected") && texts(r.out).includes("-1");
    return [ok, `exit ${r.code}: ${texts(r.out) || r.stderr}`];
  });

  check(t("roots listed from --root"), () => {
    const r = mcpeek(target, "call", "get-roots-list", "--root", here, "--root", "file:///srv/mcpeek-interop");
    const text = texts(r.out);
    const ok = r.code === 0 && text.includes("(2 total)") && text.includes(`URI: file://${here}`) &&
      text.includes("URI: file:///srv/mcpeek-interop");
    return [ok, text.split("\n")[0] || r.stderr];
  });

  check(t("long-running operation reports progress"), () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpeek-interop-"));
    try {
      const log = join(dir, "wire.jsonl");
      const r = mcpeek(target, "call", "trigger-long-running-operation", "--args",
        JSON.stringify({ duration: 1, steps: 4 }), "--wire-log", log);
      const progress = readFileSync(log, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l))
        .filter((e) => e.dir === "recv" && e.message?.method === "notifications/progress" &&
          e.message.params?.progressToken === "mcpeek-1");
      const last = progress.at(-1)?.message.params;
      const ok = r.code === 0 && progress.length === 4 && last?.progress === 4 && last?.total === 4;
      return [ok, `${progress.length} progress notifications, last ${JSON.stringify(last)}`];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  check(t("simulated logging at the chosen level"), () => {
    // The server sends its first message as the tool runs, without waiting
    // for it; over HTTP it goes on the session's own stream, and may come
    // after the result, when mcpeek has gone. So a run may see none: up to
    // three runs are made, and any line must be at a level at or above the
    // one asked for (debug: every level).
    let r, lines = [];
    for (let i = 0; i < 3 && lines.length === 0; i++) {
      r = mcpeek(target, "call", "toggle-simulated-logging", "--log-level", "debug");
      if (r.code !== 0) break;
      lines = r.stderr.split("\n").filter((l) => /^mcpeek: server log (debug|info|notice|warning|error|critical|alert|emergency): \w+.level message/i.test(l));
    }
    return [r.code === 0 && lines.length >= 1 && !r.out?.content?.some((c) => /server log/.test(c.text)), lines[0] || r.stderr];
  });

  check(t("subscribed resource updates arrive"), () => {
    const uri = "demo://resource/static/document/architecture.md";
    const r = mcpeek(target, "call", "toggle-subscriber-updates", "--subscribe", uri, "--updates", "1");
    const ok = r.code === 0 && r.stderr.includes(`mcpeek: resource updated: ${uri}`);
    return [ok, r.stderr.split("\n").at(-1)];
  });

  check(t("completable prompt completes"), () => {
    const dept = mcpeek(target, "complete", "prompt", "completable-prompt", "department", "E");
    const name = mcpeek(target, "complete", "prompt", "completable-prompt", "name", "", "--context", "department=Engineering");
    const ok = dept.code === 0 && isDeepStrictEqual(dept.out?.values, ["Engineering"]) &&
      name.code === 0 && isDeepStrictEqual(name.out?.values, ["Alice", "Bob", "Charlie"]);
    return [ok, `${JSON.stringify(dept.out?.values)} ${JSON.stringify(name.out?.values)} ${dept.stderr} ${name.stderr}`];
  });

  check(t("task completes"), () => {
    const r = mcpeek(target, "call", "simulate-research-query", "--args", JSON.stringify({ topic: "mcpeek" }));
    const text = texts(r.out);
    const ok = r.code === 0 && text.includes("# Research Report: mcpeek") && /task \w+ completed/.test(r.stderr);
    return [ok, text.split("\n")[0] || r.stderr];
  });

  check(t("task clarification answered from answers file"), () => {
    const r = mcpeek(target, "call", "simulate-research-query", "--args", JSON.stringify({ topic: "python", ambiguous: true }),
      "--answers", join(here, "research-answers.json"));
    const text = texts(r.out);
    const ok = r.code === 0 && text.includes("# Research Report: python (snake)") && r.stderr.includes("input_required");
    return [ok, text.split("\n")[0] || r.stderr];
  });

  for (const [policy, done, said] of [["decline", "declined", "User declined"], ["cancel", "cancelled", "User cancelled"]]) {
    check(t(`task clarification ${done}`), () => {
      const r = mcpeek(target, "call", "simulate-research-query", "--args", JSON.stringify({ topic: "go", ambiguous: true }),
        "--on-elicit", policy);
      const text = texts(r.out);
      return [r.code === 0 && text.includes(`**Clarification**: ${said}`), text.split("\n")[0] || r.stderr];
    });
  }

  check(t("call get-structured-content"), () => {
    const r = mcpeek(target, "call", "get-structured-content", "--args", '{"location": "Chicago"}');
    const want = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    const ok = r.code === 0 && isDeepStrictEqual(r.out?.structuredContent, want) &&
      isDeepStrictEqual(JSON.parse(texts(r.out)), want);
    return [ok, JSON.stringify(r.out?.structuredContent) || r.stderr];
  });
}

// startHTTP starts the server's streamable HTTP transport and waits until
// it says it is listening.
async function startHTTP() {
  const port = await freePort();
  const child = await startServer(everything, ["streamableHttp"], { PORT: String(port) }, "listening on port");
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

checks("stdio", ["--", everything, "stdio"]);
let server;
try {
  server = await startHTTP();
  checks("http", [server.url]);
} catch (e) {
  report("everything/http/start", false, e.message);
} finally {
  server?.child.kill();
}
process.exit(failures() > 0 ? 1 : 0);
