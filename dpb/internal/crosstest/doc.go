// Package crosstest holds the tests that cross packages: the secure noise on
// every mechanism, the privacy reports, bad inputs to every constructor, and
// the constructors' fuzz targets.
package crosstest
