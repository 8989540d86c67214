//go:build !unix

package main

// addressSpaceLimit reports no address-space limit where ulimit -v does not
// exist.
func addressSpaceLimit() (int64, bool) { return 0, false }
