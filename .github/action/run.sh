#!/usr/bin/env bash
# Runs mcpeek for action.yml: MCPEEK_COMMAND, then MCPEEK_ARGS split into
# words as a shell would. The inputs arrive in the environment, never
# pasted into a script, so no input is run as code.
set -euo pipefail

args=()
if [ -n "${MCPEEK_ARGS:-}" ]; then
  # xargs splits and unquotes without expanding anything ($, `, globs).
  while IFS= read -r -d '' word; do args+=("$word"); done < <(printf '%s' "$MCPEEK_ARGS" | xargs printf '%s\0')
fi
if [ -n "${MCPEEK_COMMAND:-}" ]; then
  args=("$MCPEEK_COMMAND" "${args[@]}")
fi
exec mcpeek "${args[@]}"
