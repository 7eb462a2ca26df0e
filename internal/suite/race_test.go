//go:build race

package suite

// raceEnabled: the race detector slows the 10 MB result's marshalling
// tenfold, so the large-result test sends less under it.
const raceEnabled = true
