#!/usr/bin/env node
// Runs @modelcontextprotocol/server-filesystem (or any stdio server named by
// its arguments) and holds the client's requests made after initialization
// until the server says on stderr that it has taken the client's roots.
//
// The server asks for roots/list when it is initialized and applies the
// answer asynchronously, after checking each directory on disk; a request
// that arrives meanwhile is answered with the directories it had before
// (none, when started without any). A person never sees this; a headless
// call sent at once does. The gate waits for that one line so that a check
// of "the server uses --root" is not a race. Responses (the roots answer
// among them) pass at once; the gate opens after 10 seconds regardless, so
// a server that never says it leaves the check to fail on its result.
//
// Usage: roots-gate.mjs SERVER [ARG...]
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const ready = /Updated allowed directories from MCP roots|Client returned no roots set|Failed to request initial roots/;
const [cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: ["pipe", "inherit", "pipe"] });

let initialized = false;
let open = false;
const held = [];
function release() {
  if (open) return;
  open = true;
  clearTimeout(deadline);
  for (const line of held) child.stdin.write(line + "\n");
  held.length = 0;
  if (ended) endInput();
}
const deadline = setTimeout(release, 10000);

child.stderr.on("data", (d) => {
  process.stderr.write(d);
  if (ready.test(String(d))) release();
});

// The server outlives the end of its input while a request it made waits
// for an answer (a minute, for an unanswered roots/list), and mcpeek's stop
// signal reaches the gate, not the server: so the gate passes signals on,
// and stops the server a second after its input ends.
let ended = false;
function endInput() {
  child.stdin.end();
  setTimeout(() => child.kill(), 1000).unref();
}
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let msg = null;
  try {
    msg = JSON.parse(line);
  } catch {}
  const request = msg && typeof msg.method === "string" && msg.id !== undefined;
  if (!open && initialized && request) {
    held.push(line);
    return;
  }
  if (msg?.method === "notifications/initialized") initialized = true;
  child.stdin.write(line + "\n");
});
lines.on("close", () => {
  ended = true;
  if (open || held.length === 0) endInput();
});
child.on("exit", (code, signal) => {
  clearTimeout(deadline);
  process.exit(code ?? (signal ? 1 : 0));
});
