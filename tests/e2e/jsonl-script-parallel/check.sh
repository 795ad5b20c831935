rm -rf "${TMPDIR:-/tmp}"/ananke-meet-*
