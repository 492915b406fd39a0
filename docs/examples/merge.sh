#!/usr/bin/env bash
# Adds up the shards that shard.sh wrote into OUT (default: results): prints the whole
# match's table and writes its JSON to OUT/match.json. Fails, naming the shard, when one
# is missing or belongs to another match. RULEBOOK is the program (default: `rulebook`).
set -euo pipefail

rulebook=${RULEBOOK:-rulebook}
out=${OUT:-results}
"$rulebook" merge "$out"/shard-*.json --json "$out/match.json"
