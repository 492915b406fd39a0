#!/usr/bin/env bash
# Plays one shard of a match: what each task of the Slurm job array (match.slurm) and each
# pod of the Kubernetes indexed Job (match-job.yaml) runs, from the repository's root.
#
# Which shard, from the environment:
#   SHARD and SHARDS       K and N of `--shard K/N` (1 <= K <= N), or else
#   JOB_COMPLETION_INDEX   Kubernetes' index of the pod, from 0: shard index + 1 of SHARDS.
# The match (the same for every shard; the defaults are an example):
#   GAME, BOTS, GAMES, SEED, and JOBS (worker threads; unset: one per core).
# Where things are:
#   RULEBOOK  the program (default: `rulebook` on PATH)
#   OUT       a folder every shard shares (default: results): shard-K.json, shard-K.txt
#             (its table) and transcripts/ (game-0001.txt ..., named as in the whole match)
set -euo pipefail

if [ -z "${SHARD:-}" ] && [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    SHARD=$((JOB_COMPLETION_INDEX + 1))
fi
: "${SHARD:?set SHARD (K of --shard K/N) or JOB_COMPLETION_INDEX}"
: "${SHARDS:?set SHARDS (N of --shard K/N)}"

rulebook=${RULEBOOK:-rulebook}
out=${OUT:-results}

mkdir -p "$out"
"$rulebook" match "${GAME:-games/connect4.toml}" \
    --bots "${BOTS:-mcts:iters=2000,greedy}" \
    --games "${GAMES:-1000}" \
    --seed "${SEED:-1}" \
    --shard "$SHARD/$SHARDS" \
    ${JOBS:+--jobs "$JOBS"} \
    --json "$out/shard-$SHARD.json" \
    --transcripts "$out/transcripts" \
    >"$out/shard-$SHARD.txt"
