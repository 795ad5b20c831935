# shellcheck shell=bash
# What the bench scripts share; sourced (bash), defines functions only.

# bench_gen_tests DIR N [SUBSTR] [TOOL] [REGEX]: bench/run.sh's N one-turn
# tests in DIR (t00001.test.yaml ...): one user turn, the text must match
# SUBSTR (default sunny) and /REGEX/ (default \b[0-9]+ degrees\b), the agent
# must call TOOL (default search). bench/scenario.yaml's agent passes them.
bench_gen_tests() {
  local dir=$1 n=$2 sub=${3:-sunny} tool=${4:-search} re=${5:-'\b[0-9]+ degrees\b'} i id
  local yre=${re//\\/\\\\} # inside a double-quoted YAML string
  mkdir -p "$dir"
  for ((i = 1; i <= n; i++)); do
    printf -v id '%05d' "$i"
    cat >"$dir/t$id.test.yaml" <<EOT
version: "1.0"
name: "bench $id"
turns:
  - user: "What is the weather in Paris? ($id)"
    assert:
      text:
        must_match: ["$sub", "/$yre/"]
      tools:
        require:
          - name: $tool
EOT
  done
}
