#!/usr/bin/env node
// mcpeek's npm entry point: it runs the native binary from the package
// made for this platform, which npm installed as one of mcpeek's
// optionalDependencies (the one whose "os" and "cpu" fit). Nothing is
// downloaded here or at install time.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

const { platforms } = require("../package.json").mcpeek;
const key = `${process.platform}-${process.arch}`;
const pkg = `@mcpeek/${key}`;

function binary() {
  if (!platforms.includes(key)) {
    return fail(`mcpeek has no binary for this platform (${key}); it is built for ${platforms.join(", ")}.`);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return fail(
      `mcpeek's binary for this platform (${key}) is missing: the package ${pkg} is not installed.\n` +
        `It is an optional dependency of mcpeek; installing with --no-optional (or --omit=optional)\n` +
        `leaves it out. Reinstall mcpeek with optional dependencies.`,
    );
  }
  return path.join(dir, "bin", process.platform === "win32" ? "mcpeek.exe" : "mcpeek");
}

function fail(message) {
  process.stderr.write(`mcpeek: ${message}\n`);
  process.exit(1);
}

const result = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  fail(`cannot run ${pkg}'s binary: ${result.error.message}`);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 1);
