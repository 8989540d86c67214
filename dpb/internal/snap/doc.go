// Package snap encodes and decodes the policies' snapshots (a little-endian
// stream of tagged fields) and holds StreamVersion, the version of the random
// streams and formats that keys the job store and the figure metadata.
package snap
