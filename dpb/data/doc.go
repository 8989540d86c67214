// Package data gets the public data files the replay experiments read (the
// Open Bandit Dataset's small sample, UCI Statlog (Shuttle) and Mushroom):
// canonical sources and pinned SHA-256 checksums ([DefaultManifest]),
// verified atomic downloads ([Fetcher]), the Shuttle conversion
// ([ConvertShuttle]) and the default data directory ([Dir]).
//
// The data are never part of the repository.
package data
