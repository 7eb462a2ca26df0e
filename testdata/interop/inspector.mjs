#!/usr/bin/env node
// Checks that a recording mcpeek made serves a client written elsewhere:
// the official Inspector's CLI (@modelcontextprotocol/inspector --cli)
// lists tools and calls one against `mcpeek replay REC --serve`, over
// stdio and over streamable HTTP. The Inspector sends what mcpeek's own
// client does not (tools/list with no params, logging/setLevel first), so
// the served recording must take what the spec makes optional as left out
// and answer the session's upkeep it does not hold, saying so.
//
// Prints one line per check, "<check>\t<pass|fail>\t<detail>", and exits
// non-zero when any check fails.
//
// Environment: MCPEEK_BIN (the mcpeek binary), MCPEEK_INSPECTOR (the
// Inspector's bin script).
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, check, failures, freePort, mcpeek, report, startServer, texts } from "./lib.mjs";

const inspector = process.env.MCPEEK_INSPECTOR;
if (!inspector) {
  console.error("MCPEEK_INSPECTOR is not set");
  process.exit(2);
}
const work = realpathSync(mkdtempSync(join(tmpdir(), "mcpeek-inspector-")));
const rec = join(work, "session.jsonl");
const note = 'add_note: 1 notes, the last "hi"';

// inspect runs the Inspector's CLI against a server (a command, or a URL
// and its transport) and returns its exit code, parsed stdout and stderr.
function inspect(server, ...args) {
  const run = spawnSync(process.execPath, [inspector, "--cli", ...server, ...args], { encoding: "utf8", timeout: 60000 });
  let out = null;
  try {
    out = JSON.parse(run.stdout);
  } catch {}
  return { code: run.status, out, stdout: run.stdout ?? "", stderr: (run.stderr ?? "").trim() };
}

const list = ["--method", "tools/list"];
const call = ["--method", "tools/call", "--tool-name", "add_note", "--tool-arg", "text=hi"];

// listed and called check the Inspector's output.
const listed = (r) => (r.out?.tools ?? []).map((x) => x.name).includes("add_note");
const called = (r) => texts(r.out) === note;

// matched checks a served recording's summary: everything matched, and
// the Inspector's logging/setLevel (n of them) answered apart.
const matched = (text, n) =>
  text.includes("everything matched") && text.includes(`not from the recording (not a mismatch): logging/setLevel (${n})`);

try {
  const r = mcpeek(["--", bin, "fixture"], "call", "add_note", "--args", '{"text":"hi"}', "--protocol", "legacy", "--record", rec);
  if (r.code !== 0) {
    report("inspector/record", false, r.stderr);
  } else {
    // stdio: each Inspector run starts its own served recording, whose
    // summary comes on the Inspector's stderr.
    const stdio = [bin, "replay", rec, "--serve"];
    for (const [name, args, ok] of [["tools/list", list, listed], ["tools/call add_note", call, called]]) {
      check(`inspector/stdio/${name}`, () => {
        const x = inspect(stdio, ...args);
        return [x.code === 0 && ok(x) && matched(x.stderr, 1), x.code === 0 ? x.stderr : x.stderr || x.stdout];
      });
    }

    // HTTP: one served recording answers both Inspector runs, and says
    // so when interrupted.
    const port = await freePort();
    const child = await startServer(bin, ["replay", rec, "--serve", "--http", String(port)], {}, "as streamable HTTP on");
    let said = "";
    child.stderr.on("data", (d) => (said += d));
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    const http = [`http://127.0.0.1:${port}/`, "--transport", "http"];
    for (const [name, args, ok] of [["tools/list", list, listed], ["tools/call add_note", call, called]]) {
      check(`inspector/http/${name}`, () => {
        const x = inspect(http, ...args);
        return [x.code === 0 && ok(x), x.code === 0 ? texts(x.out) || `${x.out?.tools?.length} tools` : x.stderr || x.stdout];
      });
    }
    child.kill("SIGINT");
    const code = await exited;
    report("inspector/http/the served recording's summary", code === 0 && matched(said, 2), `exit ${code}: ${said}`);
  }
} catch (e) {
  report("inspector/run", false, e.message);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failures() ? 1 : 0);
