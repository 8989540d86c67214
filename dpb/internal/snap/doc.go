// Package snap encodes and decodes the policies' snapshots (a little-endian
// stream of fields, each part of a policy a length-prefixed blob that the
// part's AppendBinary / UnmarshalBinary write and read with [Enc] and
// [Dec]) and holds StreamVersion, the version of the random streams and
// formats that keys the job store and the figure metadata.
package snap
