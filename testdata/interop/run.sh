#!/usr/bin/env bash
# Interop: mcpeek against software written elsewhere.
#
#   1. the MCP conformance suite's client scenarios, authorization
#      included, driven through testdata/conformance/client.mjs;
#   2. the reference server @modelcontextprotocol/server-everything over
#      stdio and streamable HTTP (testdata/interop/everything.mjs), and a
#      suite of mcpeek test against it (everything.mcpeek.yaml);
#   3. @modelcontextprotocol/server-filesystem and server-memory over
#      stdio, and testdata/mcpgo, a mark3labs/mcp-go server, over stdio and
#      streamable HTTP in both protocol eras (testdata/interop/servers.mjs);
#   3b. `mcpeek test init` then `mcpeek test`, untouched, against
#      server-everything, server-filesystem, mcp-go and the TypeScript SDK's
#      example server: 0 failed; and a test saved with + in the inspector
#      (server-everything's trigger-elicitation-request answered, an mcp-go
#      resource read in 2026-07-28) passing at once (e2e/starter_test.go);
#   4. the official Inspector's CLI (@modelcontextprotocol/inspector --cli)
#      listing tools and calling one against a served recording, `mcpeek
#      replay REC --serve`, over stdio and streamable HTTP
#      (testdata/interop/inspector.mjs);
#   5. mcpeek diff over real upgrades, each side a released server run
#      live: server-filesystem and server-everything, old → new, whose
#      classified reports must be the goldens in testdata/surface/real
#      (TestDiffOfRealUpgrades holds the same reports of captured surfaces);
#   6. an MCP App built with the official Apps SDK, answered through
#      mcpeek's app host in headless Chromium (a Go test).
#
# Installs the pinned npm packages into a cache folder outside the
# repository, prints a summary table and exits non-zero on any unexpected
# failure (a check of a command this mcpeek lacks is "skipped"). Needs Go,
# npm and, for step 6, Chromium.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

conformance_version=0.2.0-alpha.12
node_version=22.23.3 # the conformance suite needs Node.js >= 22
everything_version=2026.8.31
filesystem_version=2026.8.31
memory_version=2026.8.31
ext_apps_version=2.0.4
inspector_version=2.12.0
# The upgrades step 5 diffs, old → new: the goldens are named after them.
diff_upgrades=("server-filesystem 2026.8.31 2.3.0" "server-everything 2025.9.25 2026.8.31")

cache="${MCPEEK_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpeek-ci/npm}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== npm install (pinned) into $cache"
mkdir -p "$cache"
if ! npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
  "@modelcontextprotocol/conformance@$conformance_version" \
  "node@$node_version" \
  "@modelcontextprotocol/server-everything@$everything_version" \
  "@modelcontextprotocol/server-filesystem@$filesystem_version" \
  "@modelcontextprotocol/server-memory@$memory_version" \
  "@modelcontextprotocol/ext-apps@$ext_apps_version" \
  "@modelcontextprotocol/inspector@$inspector_version" >"$work/npm.log" 2>&1; then
  cat "$work/npm.log"; echo "npm install failed"; exit 1
fi
export PATH="$cache/node_modules/.bin:$PATH" # Node 22 first
echo "node $(node --version)"

echo "== go build"
go build -o "$work/mcpeek" . || exit 1
export MCPEEK_BIN="$work/mcpeek"
export MCPEEK_SERVER_EVERYTHING="$cache/node_modules/.bin/mcp-server-everything"
export MCPEEK_SERVER_FILESYSTEM="$cache/node_modules/.bin/mcp-server-filesystem"
export MCPEEK_SERVER_MEMORY="$cache/node_modules/.bin/mcp-server-memory"
export MCPEEK_EXT_APPS="$cache/node_modules/@modelcontextprotocol/ext-apps"
export MCPEEK_INSPECTOR="$cache/node_modules/.bin/mcp-inspector"

rows=()    # "name<TAB>result"
unexpected=0
row() { rows+=("$1"$'\t'"$2"); case "$2" in pass | "expected failure" | skipped) ;; *) unexpected=$((unexpected + 1)) ;; esac; }

# checks runs a script that prints "<check>\t<result>\t<detail>" lines and
# adds a row for each; a script that fails without a failing row adds NAME/run.
checks() {
  local name=$1 script=$2 status
  node "$script" >"$work/$name.tsv" 2>"$work/$name.err"
  status=$?
  while IFS=$'\t' read -r check result detail; do
    row "$check" "$result"
    [ "$result" = pass ] || echo "--- $check: $result: $detail"
  done <"$work/$name.tsv"
  if [ $status -ne 0 ] && ! grep -q $'\tfail\t' "$work/$name.tsv"; then
    cat "$work/$name.err"; row "$name/run" fail
  fi
}

echo "== conformance $conformance_version: client scenarios"
expected="$root/testdata/conformance/expected-failures.yaml"
# Each scenario at the revisions it applies to; the wrapper pins mcpeek to
# the revision under test.
runs=(
  "initialize 2025-06-18" "initialize 2025-11-25"
  "tools_call 2025-06-18" "tools_call 2025-11-25" "tools_call 2026-07-28"
  "elicitation-sep1034-client-defaults 2025-11-25"
  "sse-retry 2025-11-25"
  "request-metadata 2026-07-28"
  "sep-2322-client-request-state 2026-07-28"
  "http-standard-headers 2026-07-28"
  "http-custom-headers 2026-07-28"
  "http-invalid-tool-headers 2026-07-28"
  "json-schema-ref-no-deref 2026-07-28"
  "json-schema-2020-12-preservation 2025-11-25" "json-schema-2020-12-preservation 2026-07-28"
)
# Authorization: every client auth scenario that is not an extension, at
# each revision it applies to (44 runs); mcpeek logs in through its public
# CLI, with testdata/conformance/browser.mjs as its browser.
auth_core="metadata-default metadata-var1 metadata-var2 metadata-var3 basic-cimd
  scope-from-www-authenticate scope-from-scopes-supported scope-omitted-when-undefined scope-step-up
  scope-retry-limit token-endpoint-auth-basic token-endpoint-auth-post token-endpoint-auth-none pre-registration"
auth_draft="resource-mismatch offline-access-scope offline-access-not-supported authorization-server-migration
  iss-supported iss-not-advertised iss-supported-missing iss-wrong-issuer iss-unexpected iss-normalized
  metadata-issuer-mismatch"
for s in $auth_core; do runs+=("auth/$s 2025-11-25"); done
for s in $auth_core $auth_draft; do runs+=("auth/$s 2026-07-28"); done
for s in token-endpoint-auth-basic token-endpoint-auth-post token-endpoint-auth-none; do runs+=("auth/$s 2025-06-18"); done
runs+=("auth/2025-03-26-oauth-metadata-backcompat 2025-03-26" "auth/2025-03-26-oauth-endpoint-fallback 2025-03-26")
for r in "${runs[@]}"; do
  read -r scenario revision <<<"$r"
  log="$work/conformance-${scenario//\//_}-$revision.log"
  conformance client --command "$root/testdata/conformance/client.mjs" \
    --scenario "$scenario" --spec-version "$revision" --timeout 60000 \
    --expected-failures "$expected" >"$log" 2>&1
  status=$?
  if [ $status -ne 0 ]; then
    result=fail
    echo "--- $scenario @ $revision failed; its log:"; cat "$log"
  elif grep -q "^  ~ $scenario" "$log"; then
    result="expected failure"
  else
    result=pass
  fi
  row "conformance/$scenario @ $revision" "$result"
done

echo "== server-everything $everything_version: stdio and streamable HTTP"
checks everything testdata/interop/everything.mjs

echo "== mcpeek test: testdata/interop/everything.mcpeek.yaml against server-everything"
if "$MCPEEK_BIN" test testdata/interop/everything.mcpeek.yaml --junit "$work/everything-junit.xml" >"$work/suite.log" 2>&1 &&
  grep -q '<testsuites tests="[1-9][0-9]*" failures="0"' "$work/everything-junit.xml"; then
  row "everything/mcpeek test suite" pass
else
  cat "$work/suite.log"; row "everything/mcpeek test suite" fail
fi

echo "== server-filesystem $filesystem_version, server-memory $memory_version and mcp-go (testdata/mcpgo)"
if (cd testdata/mcpgo && go build -o "$work/mcpgo" .) >"$work/mcpgo-build.log" 2>&1; then
  export MCPEEK_MCPGO="$work/mcpgo"
else
  cat "$work/mcpgo-build.log"; row "mcpgo/build" fail
fi
checks servers testdata/interop/servers.mjs

echo "== first runs: test init's starter and +'s saved tests against server-everything, server-filesystem, mcp-go, the TypeScript SDK"
first_runs='^(TestStarterFirstRunIsGreen|TestInspectorSavedTestOfServerEverythingPasses|TestInspectorSavedReadOfMcpGoPasses)$'
if MCPEEK_REQUIRE_BROWSER=1 go test -count=1 -run "$first_runs" ./e2e >"$work/first-runs.log" 2>&1; then
  row "first-runs/test init's starter and +'s tests pass at once" pass
else
  cat "$work/first-runs.log"; row "first-runs/test init's starter and +'s tests pass at once" fail
fi

echo "== Inspector $inspector_version --cli against mcpeek replay --serve (a recording of the fixture)"
checks inspector testdata/interop/inspector.mjs

echo "== mcpeek diff over real upgrades: ${diff_upgrades[*]}"
# Two versions of one package, each under an alias, in a folder of their
# own (their commands share a name); each is run as node and its script.
diff_cache="$cache-diff"
diff_pkgs=()
for u in "${diff_upgrades[@]}"; do
  read -r name old new <<<"$u"
  diff_pkgs+=("$name-$old@npm:@modelcontextprotocol/$name@$old" "$name-$new@npm:@modelcontextprotocol/$name@$new")
done
mkdir -p "$diff_cache" "$work/fsroot"
if npm install --prefix "$diff_cache" --no-audit --no-fund --loglevel=error "${diff_pkgs[@]}" >"$work/npm-diff.log" 2>&1; then
  for u in "${diff_upgrades[@]}"; do
    read -r name old new <<<"$u"
    args=()
    [ "$name" = server-filesystem ] && args=("$work/fsroot") # its allowed directory
    golden="testdata/surface/real/$name-$old-to-$name-$new.txt"
    out="$work/diff-$name.txt"
    "$MCPEEK_BIN" diff -- node "$diff_cache/node_modules/$name-$old/dist/index.js" "${args[@]}" \
      -- node "$diff_cache/node_modules/$name-$new/dist/index.js" "${args[@]}" >"$out" 2>"$work/diff-$name.err"
    status=$? # 1: findings at ERR, which these upgrades have
    # The first line names the sides, here commands, there files.
    if [ $status -le 1 ] && diff <(tail -n +2 "$golden") <(tail -n +2 "$out") >"$work/diff-$name.diff"; then
      row "diff/$name $old → $new" pass
    else
      echo "--- mcpeek diff $name $old → $new: exit $status, the report against $golden:"
      cat "$work/diff-$name.err" "$work/diff-$name.diff"
      row "diff/$name $old → $new" fail
    fi
  done
else
  cat "$work/npm-diff.log"; row "diff/npm install" fail
fi

echo "== Apps SDK $ext_apps_version: an SDK-built app answered through the app host"
if MCPEEK_REQUIRE_BROWSER=1 go test -count=1 -run '^TestBrowserInteropWithTheAppsSDK$' ./e2e >"$work/apps.log" 2>&1; then
  row "apps-sdk/app answers in headless Chromium" pass
else
  cat "$work/apps.log"; row "apps-sdk/app answers in headless Chromium" fail
fi

echo
echo "== summary"
printf '%-66s %s\n' "check" "result"
for r in "${rows[@]}"; do
  printf '%-66s %s\n' "${r%%$'\t'*}" "${r#*$'\t'}"
done
echo
total=${#rows[@]}
conf_total=$(printf '%s\n' "${rows[@]}" | grep -c '^conformance/')
conf_pass=$(printf '%s\n' "${rows[@]}" | grep '^conformance/' | grep -c $'\tpass$')
echo "conformance: $conf_pass of $conf_total scenario runs passed"
skipped=$(printf '%s\n' "${rows[@]}" | grep -c $'\tskipped$')
echo "all checks: $((total - unexpected)) of $total as expected ($skipped skipped)"
[ $unexpected -eq 0 ]
