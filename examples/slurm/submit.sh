#!/usr/bin/env bash
# Submits a sharded book build to Slurm: an array job of N shard builds (build-shards.sbatch) and a
# merge job (merge.sbatch) that waits for all of them, and prints both job ids. See README.md.
#
#   submit.sh -n SHARDS -o BOOK [-w WORK_DIR] [-m 'MAKE OPTIONS'] [-M 'MERGE OPTIONS'] [-s 'SBATCH OPTIONS'] INPUT...
set -euo pipefail

usage() {
  cat >&2 <<'USAGE'
usage: submit.sh -n SHARDS -o BOOK [options] INPUT...

  -n SHARDS      number of shard tasks (the array job runs tasks 0..SHARDS-1)
  -o BOOK        the merged book to write (.tbk or .bin)
  -w WORK_DIR    where the parts (part-I.tbk) and the job logs go (default: BOOK.parts);
                 it must be on a file system that every node sees, as must the inputs and BOOK
  -m 'OPTIONS'   options for every shard's `tabiya book make`, e.g. '--max-ply 40 --threads 4'
  -M 'OPTIONS'   options for `tabiya book merge`, e.g. thresholds such as '--min-games 3'
  -s 'OPTIONS'   sbatch options for both jobs, e.g. '--partition=long --time=2:00:00 --mem=4G'
  -S 'OPTIONS'   sbatch options for the shard tasks only, e.g. '--cpus-per-task=4'

Options in quotes are split at spaces. $TABIYA is the tabiya command on the nodes (default: tabiya).
Prints 'shards job ID' and 'merge job ID'.
USAGE
  exit 2
}

shards='' output='' work_dir='' make_opts='' merge_opts='' sbatch_opts='' shard_sbatch_opts=''
while getopts 'n:o:w:m:M:s:S:h' opt; do
  case $opt in
    n) shards=$OPTARG ;;
    o) output=$OPTARG ;;
    w) work_dir=$OPTARG ;;
    m) make_opts=$OPTARG ;;
    M) merge_opts=$OPTARG ;;
    s) sbatch_opts=$OPTARG ;;
    S) shard_sbatch_opts=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $shards =~ ^[1-9][0-9]*$ && -n $output && $# -gt 0 ]] || usage
for input in "$@"; do
  [[ -r $input ]] || { echo "submit.sh: $input: no such readable file" >&2; exit 1; }
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Absolute paths: the jobs may start in another directory, on another node.
output=$(realpath -m -- "$output")
work_dir=$(realpath -m -- "${work_dir:-$output.parts}")
inputs=()
for input in "$@"; do inputs+=("$(realpath -- "$input")"); done
read -r -a make_args <<<"$make_opts"
read -r -a merge_args <<<"$merge_opts"
read -r -a sbatch_args <<<"$sbatch_opts"
read -r -a shard_sbatch_args <<<"$shard_sbatch_opts"
mkdir -p "$work_dir/logs"

# --export=ALL: the jobs see $TABIYA and PATH even where the site defaults to SBATCH_EXPORT=NONE.
shard_job=$(sbatch --parsable --export=ALL --array="0-$((shards - 1))" \
  --output="$work_dir/logs/shard-%a.out" "${sbatch_args[@]}" "${shard_sbatch_args[@]}" \
  "$here/build-shards.sbatch" "$work_dir" "$shards" "${make_args[@]}" -- "${inputs[@]}")
shard_job=${shard_job%%;*} # --parsable prints "id;cluster" on multi-cluster sites
# afterok on an array job waits for every task; kill-on-invalid-dep cancels the merge when a
# shard fails, instead of leaving it pending forever.
merge_job=$(sbatch --parsable --export=ALL --dependency="afterok:$shard_job" --kill-on-invalid-dep=yes \
  --output="$work_dir/logs/merge.out" "${sbatch_args[@]}" \
  "$here/merge.sbatch" "$work_dir" "$shards" "$output" "${merge_args[@]}") || {
  echo "submit.sh: the merge job was not accepted; cancelling the shards job $shard_job" >&2
  scancel "$shard_job"
  exit 1
}
merge_job=${merge_job%%;*}

echo "shards job $shard_job"
echo "merge job $merge_job"
