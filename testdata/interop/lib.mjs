// What the interop scripts share: running mcpeek, and reporting one line per
// check, "<check>\t<pass|fail|skipped>\t<detail>", for run.sh's summary.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

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

// freePort returns a TCP port that is free on 127.0.0.1 now.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// startServer starts a server (cmd and args, env added to this process's)
// and waits up to 20 seconds for its stderr to say ready; it returns the
// child process, which the caller kills.
export async function startServer(cmd, args, env, ready) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${ready}" within 20s: ${said}`)), 20000);
      child.stderr.on("data", (d) => {
        said += d;
        if (said.includes(ready)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${said}`)));
    });
  } catch (e) {
    child.kill();
    throw e;
  }
  return child;
}
