package shopping

import "github.com/voyage/voyage/pkg/supplier"

// readAheadRun is how many offers readAhead reads at a time: a few dozen
// kilobytes, which stay in the core's cache until they are used.
const readAheadRun = 32

// readAheadAt reads ahead the run of offers that starts at k, when one
// does: called at every offer of a loop over offers, it reads each run
// before the loop reaches it.
func readAheadAt(offers []supplier.Offer, k int) uint64 {
	if k%readAheadRun != 0 {
		return 0
	}
	return readAhead(offers[k:min(k+readAheadRun, len(offers))])
}

// readAhead reads a byte or a word of every allocation of offers that
// encoding or pricing them reads: their refs, segments, fares and journeys,
// and the strings a source made for each (flight numbers, fare bases). A
// search's answers were made long before they are encoded or built (the
// store gathers for 200 ms and waits behind completing builds; a build
// waits for its poll), so they are seldom in cache; going through them
// offer by offer waits for each miss in turn, while this loop's loads do
// not depend on each other, and the processor has many of them in flight
// at once. The sum is for the caller to keep, so that the loads are not
// optimised away.
func readAhead(offers []supplier.Offer) uint64 {
	var x uint64
	for i := range offers {
		o := &offers[i]
		x += ends(o.Ref)
		for k := range o.Segments {
			s := &o.Segments[k]
			x += ends(s.FlightNumber) + ends(s.FareBasis) + uint64(s.SeatsLeft)
		}
		for k := range o.Fares {
			x += ends(o.Fares[k].Type)
		}
		for _, j := range o.Journeys {
			if len(j) > 0 {
				x += uint64(j[0])
			}
		}
	}
	return x
}

// ends are s's first and last bytes, which may be in two cache lines.
func ends(s string) uint64 {
	if len(s) == 0 {
		return 0
	}
	return uint64(s[0]) + uint64(s[len(s)-1])
}
