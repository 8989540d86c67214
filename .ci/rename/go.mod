// Module rename holds the tools of .ci/rename/rename.sh, the script that applies the
// layout and name changes of the harness split and the mechanical renames to
// a branch written against the old names (standard library only).
module dpbrename

go 1.26.0
