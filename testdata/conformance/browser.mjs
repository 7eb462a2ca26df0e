#!/usr/bin/env node
// The browser of the conformance wrapper's auth scenarios, run by mcpeek
// through --open-with with the authorization URL as its last argument. It
// does what a person's browser would: request the authorization URL, and
// follow its redirect to mcpeek's loopback callback (the suite's
// authorization server approves at once). It follows nothing further.
const authURL = process.argv.at(-1);
try {
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
