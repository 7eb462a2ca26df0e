#!/usr/bin/env node
// The browser of the conformance wrapper's auth scenarios, run by mcpeek
// through --open-with with a launch page's file:// URL as its last argument. It
// does what a person's browser would: request the authorization URL, and
// follow its redirect to mcpeek's loopback callback (the suite's
// authorization server approves at once). It follows nothing further.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// mcpeek hands a browser the file:// URL of a private launch page, never the
// authorization URL itself (its state would be in this process's
// arguments); the page sends the browser on with a meta refresh.
function target(arg) {
  if (!arg.startsWith("file:")) return arg;
  const page = readFileSync(fileURLToPath(arg), "utf8");
  const m = page.match(/http-equiv="refresh" content="0;url=([^"]*)"/);
  if (!m) throw new Error(`${arg} is not a launch page`);
  return m[1].replace(/&(amp|lt|gt|#34|#39);/g, (_, e) => ({ amp: "&", lt: "<", gt: ">", "#34": '"', "#39": "'" })[e]);
}

let authURL = process.argv.at(-1);
try {
  authURL = target(authURL);
  const res = await fetch(authURL, { redirect: "manual" });
  const location = res.headers.get("location");
  if (!location) {
    console.error(`browser: ${authURL} answered ${res.status} without a redirect`);
    process.exit(1);
  }
  await fetch(new URL(location, authURL), { redirect: "manual" });
} catch (e) {
  console.error(`browser: ${e.message}`);
  process.exit(1);
}
