// What the interop scripts share: running mcpeek, and reporting one line per
// check, "<check>\t<pass|fail|skipped>\t<detail>", for run.sh's summary.
import { spawnSync } from "node:child_process";

export const bin = process.env.MCPEEK_BIN || "mcpeek";

let failed = 0;

// failures is how many checks have failed so far.
export function failures() {
  return failed;
}

// report prints one check's line: ok is "skipped", or truthy for a pass.
export function report(name, ok, detail) {
  const result = ok === "skipped" ? "skipped" : ok ? "pass" : "fail";
  if (result === "fail") failed++;
  console.log(`${name}\t${result}\t${String(detail ?? "").replace(/\s+/g, " ").slice(0, 160)}`);
}

// mcpeek runs one subcommand against the target and returns its exit code,
// its parsed stdout (when JSON), its raw stdout and its stderr.
export function mcpeek(target, ...args) {
  const run = spawnSync(bin, [...args, "--timeout", "60s", ...target], { encoding: "utf8" });
  let out = null;
  try {
    out = JSON.parse(run.stdout);
  } catch {}
  return { code: run.status, out, stdout: run.stdout ?? "", stderr: (run.stderr ?? "").trim() };
}

// check runs one named check; fn returns [ok, detail] (ok may also be
// "skipped") or throws.
export function check(name, fn) {
  try {
    const [ok, detail] = fn();
    report(name, ok, detail);
  } catch (e) {
    report(name, false, e.message);
  }
}

// texts joins the text blocks of a CallToolResult.
export const texts = (out) => (out?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
