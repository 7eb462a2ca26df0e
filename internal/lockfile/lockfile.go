// Package lockfile takes a file's exclusive lock, which serialises the
// updates several mcpeek processes make to one store (the token store,
// the approved servers).
package lockfile
