package shopping

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/voyage/voyage/pkg/supplier"
)

// The stored form of a batch of supplier answers. Every search writes and
// polls these, so the codec is hand-written: gob's reflection and gzip's
// deflate cost about a fifth of a busy instance's CPU and most of its
// garbage. Answers are very repetitive (a few dozen airports, carriers and
// flights recombined into hundreds of offers, sorted so that neighbours
// look alike), so interning and writing only what differs from the
// previous record keep payloads smaller than gob+gzip made them, without
// compressing.
//
// Layout (uv: uvarint, v: zigzag varint; [x] is present when its bit is
// set in the mask before it, and otherwise the previous record's value):
//
//	payload  = version uv×nCounts part*
//	           The counts (parts, strings of each table, distinct segments
//	           and fares, and everything decoding materialises) let the
//	           decoder allocate each kind of value once for the batch and
//	           refuse a payload that claims more than its size allows.
//	part     = fstr(Name) fstr(Supplier) fstr(Status) uv(offers) offer*
//	offer    = uv(mask of offer*) ref uv(n) segment*n uv(n) fare*n
//	           [journeys] [fstr(ValidatingCarrier)] [fstr(Brand)]
//	           [v(CheckedPieces) v(CheckedKg) v(CabinPieces) v(CabinKg)]
//	           [uv(refundable|changeable<<1) amount(RefundFee)
//	           amount(ChangeFee)] [v(MinAge) v(MaxAge) list list list]
//	           [v(TicketingMinutes)] [fstr(Supplier)] [fstr(Currency)]
//	           [time(ExpiresAt)], compared with the previous offer
//	ref      = uv(kept) uv(n) rstr*n: the Ref cut after each "~", "_"
//	           and "+"; the first kept pieces are the previous ref's
//	segment  = uv(i<<1): a copy of the i-th distinct segment
//	         | uv(mask of segment*<<1|1) [fstr(Carrier)]
//	           [uv(number), FlightNumber being Carrier+number | fstr]
//	           [fstr(OperatingCarrier)] [fstr(Origin)] [fstr(Destination)]
//	           time(DepartAt) time(ArriveAt) [v(DurationMinutes), when not
//	           the minutes between the two] [fstr(Cabin)]
//	           [fstr(BookingClass)] [fstr(FareBasis)] [fstr(Aircraft)]
//	           [v(SeatsLeft)], compared with the previous distinct segment
//	fare     = uv(i<<1) | uv(mask of fare*<<1|1) [fstr(Type)] [v(Count)]
//	           [amount(Base)] [amount(Taxes)] [amount(AirportTax)]
//	           [amount(FuelSurcharge)], compared with the previous distinct fare
//	journeys = uv(n<<1|consecutive) then per journey uv(len), followed by
//	           len×v(index) unless consecutive (indexes 0, 1, 2... in order,
//	           what nearly every offer has)
//	list     = uv(n) fstr*n
//	amount   = uv(zigzag(m)<<2|k) for m×10^k (fares are round numbers)
//	         | uv(1) v(amount) for the few that do not fit
//	fstr, rstr: a string of the field or the ref table (refs' pieces would
//	           make the fields' indexes longer):
//	           uv(i<<1): the i-th string of the table
//	         | uv(len<<2|1) bytes: a literal
//	         | uv(len<<3|3) bytes: a literal of 2×len lower-case hex digits
//	         | uv(n<<3|7) str*n: a literal, the concatenation of n strings
//	           of the table (not themselves concatenations); the encoder
//	           cuts new ref pieces after each tokenSeparator
//	           Every non-empty literal is appended to its table.
//	time     = uv(0): the zero time
//	         | uv(zone | flags | zigzag(offset)<<5) v(delta) [uv(nanos)]
//	           zone: 1 UTC, 2 the offset of the slot's previous time, 3 the
//	           offset in the head (in minutes, or seconds with
//	           offsetSeconds); delta is from the previous distinct
//	           segment's departure for a departure, the departure for its
//	           arrival, the previous offer's expiry for an expiry, in
//	           minutes with deltaMinutes.
const partsVersion byte = 1

// A Ref is interned by pieces, each ending with "~", "_" or "+" (the
// simulator's separators and Duffel's, which also ends its "off_" prefix).
// A new piece is written as the tokens ending with tokenSeparator, so that
// a new journey in a simulator ref costs a flight number, not the whole
// journey.
const tokenSeparator = '.'

// maxDecoded bounds the memory a payload may decode to, as the gob reader's
// limit did; maxExpansion bounds it relative to the payload, so a short
// corrupt payload cannot ask for much either. A real answer decodes to
// some 25 times its size.
const (
	maxDecoded   = 256 << 20
	maxExpansion = 1024
)

// maxPooledBuf keeps an unusually large batch's buffer out of the pool.
const maxPooledBuf = 4 << 20

// maxZoneOffset is the largest UTC offset, in seconds, time.MarshalBinary
// (and so the gob format) can store.
const maxZoneOffset = math.MaxInt16 * 60

// Indexes of the counts heading a payload.
const (
	cParts = iota
	cFieldStrings
	cRefStrings
	cSegments // distinct segments
	cFares    // distinct fares
	cOffers
	cOfferSegments
	cOfferFares
	cJourneys
	cJourneyIndexes
	cListItems
	cMadeBytes // strings the decoder builds: refs, concatenations, hex, flight numbers
	nCounts
)

type counts [nCounts]uint64

// Offer fields written when they differ from the previous offer's, the
// ones that often do first so the mask usually takes a byte.
const (
	oValidatingCarrier = 1 << iota
	oBrand
	oBaggage
	oConditions
	oRestrictions
	oTicketing
	oJourneys
	oSupplier
	oCurrency
	oExpiresAt
	oAll = 1<<iota - 1
)

// Segment fields written when they differ from the previous distinct
// segment's (sDuration: from the minutes between departure and arrival).
const (
	sFlightNumber = 1 << iota // carrier + number
	sFlightCode               // any other flight number
	sCarrier
	sAircraft
	sSeatsLeft
	sFareBasis
	sBookingClass
	sDuration
	sOrigin
	sDestination
	sCabin
	sOperatingCarrier
	sAll = 1<<iota - 1
)

// Fare fields written when they differ from the previous distinct fare's.
const (
	fBase = 1 << iota
	fTaxes
	fAirportTax
	fFuelSurcharge
	fType
	fCount
	fAll = 1<<iota - 1
)

// A time's head: the zone in the low two bits, then flags.
const (
	zoneNone = iota // the zero time
	zoneUTC
	zoneSame
	zoneNew

	hasNanos      = 1 << 2
	deltaMinutes  = 1 << 3
	offsetSeconds = 1 << 4
	offsetShift   = 5
)

// String kinds (see the layout).
const (
	strRaw      = 1
	strHex      = 3
	strCompound = 7
)

var errCorrupt = errors.New("corrupt payload")

// zeroOffer is the previous offer of a batch's first.
var zeroOffer supplier.Offer

// isGzip tells the gob+gzip payloads written before this codec.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// zoneSlot is the offset of the previous time of a kind, which the next one
// usually shares.
type zoneSlot struct {
	off int
	set bool
}

var encoders = sync.Pool{New: func() any {
	return &encoder{
		fieldStrs: strTable{index: map[string]uint64{}, byAddr: new([addrSlots]addrEntry)},
		refStrs:   strTable{index: map[string]uint64{}},
	}
}}

type encoder struct {
	buf       []byte
	fieldStrs strTable
	refStrs   strTable
	segs      distinct[segmentKey, supplier.Segment]
	fares     distinct[fareKey, supplier.PaxFare]
	n         counts

	prevOffer *supplier.Offer
	prevSeg   supplier.Segment
	prevFare  supplier.PaxFare
	// prevRef is the previous offer's ref and prevEnds where its pieces
	// end; ends are the current ref's.
	prevRef        string
	ends, prevEnds []int

	lastDepart, lastExpiry     int64
	departs, arrives, expiries zoneSlot

	// touched keeps readAhead's loads from being optimised away.
	touched uint64
}

// headRoom is what the counts in front of a batch can take.
const headRoom = 1 + nCounts*binary.MaxVarintLen64

// encode encodes a batch in the current format into e's buffer: the bytes
// are e's until it is released.
func (e *encoder) encode(parts []Part) ([]byte, error) {
	// The counts go in front, known once the rest is written: room is left
	// for them, so that the batch is not copied to put them there.
	e.buf = append(e.buf[:0], make([]byte, headRoom)...)
	e.n = counts{cParts: uint64(len(parts))}
	e.prevOffer = &zeroOffer
	for i := range parts {
		p := &parts[i]
		e.str(&e.fieldStrs, p.Name)
		e.str(&e.fieldStrs, p.Supplier)
		e.str(&e.fieldStrs, p.Status)
		e.uvarint(uint64(len(p.Offers)))
		e.n[cOffers] += uint64(len(p.Offers))
		for j := range p.Offers {
			e.touched += readAheadAt(p.Offers, j)
			if err := e.offer(&p.Offers[j]); err != nil {
				return nil, fmt.Errorf("part %s offer %d: %w", p.Name, j, err)
			}
		}
	}
	e.n[cFieldStrings] = e.fieldStrs.n
	e.n[cRefStrings] = e.refStrs.n
	e.n[cSegments] = uint64(len(e.segs.items))
	e.n[cFares] = uint64(len(e.fares.items))

	var head [headRoom]byte
	h := append(head[:0], partsVersion)
	for _, c := range e.n {
		h = binary.AppendUvarint(h, c)
	}
	start := headRoom - len(h)
	copy(e.buf[start:], h)
	return e.buf[start:], nil
}

// release returns the encoder to the pool, holding none of the batch's
// strings so that the pool does not keep answers alive, nor its bytes
// (see encodeBatch).
func (e *encoder) release() {
	e.buf = nil
	e.fieldStrs.reset()
	e.refStrs.reset()
	e.segs.reset()
	e.fares.reset()
	e.prevRef, e.ends, e.prevEnds = "", e.ends[:0], e.prevEnds[:0]
	e.prevOffer, e.prevSeg, e.prevFare = nil, supplier.Segment{}, supplier.PaxFare{}
	e.lastDepart, e.lastExpiry = 0, 0
	e.departs, e.arrives, e.expiries = zoneSlot{}, zoneSlot{}, zoneSlot{}
	encoders.Put(e)
}

func (e *encoder) uvarint(v uint64) {
	if v < 0x80 {
		e.buf = append(e.buf, byte(v))
		return
	}
	e.buf = binary.AppendUvarint(e.buf, v)
}

func (e *encoder) varint(v int64) { e.uvarint(zigzag(v)) }

// optStr, optInt and optAmount write a field of a record whose bit is set
// in its mask; otherwise the decoder keeps the previous record's.
func (e *encoder) optStr(mask, bit uint64, s string) {
	if mask&bit != 0 {
		e.str(&e.fieldStrs, s)
	}
}

func (e *encoder) optInt(mask, bit uint64, v int) {
	if mask&bit != 0 {
		e.varint(int64(v))
	}
}

func (e *encoder) optAmount(mask, bit uint64, v int64) {
	if mask&bit != 0 {
		e.amount(v)
	}
}

// amount writes money in minor units, which are mostly round.
func (e *encoder) amount(v int64) {
	m, k := v, uint64(0)
	for m != 0 && k < 3 && m%10 == 0 {
		m /= 10
		k++
	}
	if m >= -1<<60 && m < 1<<60 {
		e.uvarint(zigzag(m)<<2 | k)
		return
	}
	e.buf = append(e.buf, 1)
	e.varint(v)
}

// strTable numbers the strings of one of a batch's tables as the decoder
// will: every literal written is its next entry, so n counts the literals,
// and index finds those worth finding again.
type strTable struct {
	index map[string]uint64
	n     uint64
	// byAddr finds a string by its address before its bytes are hashed:
	// suppliers share their constants (carriers, airports, cabins, classes)
	// between segments, so most field strings are the very string met
	// before. Nil for refs, whose pieces are cut from each ref anew.
	byAddr *[addrSlots]addrEntry
}

const addrSlots = 256

// addrEntry is a string met before by its address and length, which only
// the same string value (or one cut from it) has: strings do not change.
type addrEntry struct {
	p *byte
	n int
	i uint64
}

func (t *strTable) slot(s string) *addrEntry {
	h := uint64(uintptr(unsafe.Pointer(unsafe.StringData(s)))) ^ uint64(len(s))<<48
	return &t.byAddr[h*0x9e3779b97f4a7c15>>56]
}

// find is the index of s, written before.
func (t *strTable) find(s string) (uint64, bool) {
	if t.byAddr == nil {
		i, ok := t.index[s]
		return i, ok
	}
	a := t.slot(s)
	if a.p == unsafe.StringData(s) && a.n == len(s) {
		return a.i, true
	}
	i, ok := t.index[s]
	if ok {
		*a = addrEntry{unsafe.StringData(s), len(s), i}
	}
	return i, ok
}

// put numbers s, just written as a literal.
func (t *strTable) put(s string) {
	t.index[s] = t.n
	if t.byAddr != nil {
		*t.slot(s) = addrEntry{unsafe.StringData(s), len(s), t.n}
	}
	t.n++
}

func (t *strTable) reset() {
	clear(t.index)
	t.n = 0
	if t.byAddr != nil {
		clear(t.byAddr[:])
	}
}

func (e *encoder) str(tab *strTable, s string) {
	if s == "" {
		e.buf = append(e.buf, strRaw)
		return
	}
	if i, ok := tab.find(s); ok {
		e.uvarint(i << 1)
		return
	}
	tab.put(s)
	e.literal(s)
}

// literal writes a non-empty string not in its table, which the decoder
// appends to it.
func (e *encoder) literal(s string) {
	if len(s)%2 == 0 {
		// Packed as it is checked, and cut off again if a byte is not a
		// digit: one pass through a table, where testing each byte's range
		// and then unpacking it branched on every digit (a digest's digits
		// and letters come in no order the CPU can predict).
		start := len(e.buf)
		e.uvarint(uint64(len(s)/2)<<3 | strHex)
		var seen byte
		for i := 0; i < len(s); i += 2 {
			hi, lo := hexValue[s[i]], hexValue[s[i+1]]
			seen |= hi | lo
			e.buf = append(e.buf, hi<<4|lo)
		}
		if seen&notHex == 0 {
			e.n[cMadeBytes] += uint64(len(s))
			return
		}
		e.buf = e.buf[:start]
	}
	e.uvarint(uint64(len(s))<<2 | strRaw)
	e.buf = append(e.buf, s...)
}

// piece writes a ref piece, a new one as its tokens.
func (e *encoder) piece(s string) {
	if i, ok := e.refStrs.find(s); ok {
		e.uvarint(i << 1)
		return
	}
	n := strings.Count(s[:len(s)-1], string(tokenSeparator)) + 1
	if n < 2 {
		e.refStrs.put(s)
		e.literal(s)
		return
	}
	e.uvarint(uint64(n)<<3 | strCompound)
	for rest := s; rest != ""; {
		i := strings.IndexByte(rest, tokenSeparator)
		if i < 0 || i == len(rest)-1 {
			i = len(rest) - 1
		}
		e.str(&e.refStrs, rest[:i+1])
		rest = rest[i+1:]
	}
	// After its tokens, as the decoder appends it.
	e.refStrs.put(s)
	e.n[cMadeBytes] += uint64(len(s))
}

// tail writes a ref's last piece when it is one token: what tells the ref
// from its neighbours (a digest, an id), so it is not looked for or kept,
// and one met again is simply written again.
func (e *encoder) tail(s string) {
	if strings.IndexByte(s, tokenSeparator) >= 0 {
		e.piece(s)
		return
	}
	e.refStrs.n++
	e.literal(s)
}

// hexValue is a byte's value as a lower-case hex digit, or notHex.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = notHex
	}
	for i := range len(hexDigits) {
		t[hexDigits[i]] = byte(i)
	}
	return t
}()

const notHex = 0x10

const hexDigits = "0123456789abcdef"

// ref writes a ref as the previous ref's first pieces and its own others.
// Answers come sorted, so a ref shares most of itself with the one before:
// the pieces kept are found by comparing the two, and only the rest of the
// ref is cut (cutting every ref whole was a third of encoding an offer).
func (e *encoder) ref(r string) {
	prev := e.prevRef
	same := commonPrefix(r, prev)
	kept, from := 0, 0
	for _, end := range e.prevEnds {
		// A piece the previous ref ended without a separator is one of
		// r's only if r ends there too.
		if end > same || !refSeparator[prev[end-1]] && end != len(r) {
			break
		}
		kept, from = kept+1, end
	}
	e.ends = appendPieceEnds(append(e.ends[:0], e.prevEnds[:kept]...), r, from)
	e.uvarint(uint64(kept))
	e.uvarint(uint64(len(e.ends) - kept))
	for _, end := range e.ends[kept:] {
		if end == len(r) && !refSeparator[r[end-1]] {
			e.tail(r[from:end])
		} else {
			e.piece(r[from:end])
		}
		from = end
	}
	e.n[cMadeBytes] += uint64(len(r))
	e.prevRef = r
	e.ends, e.prevEnds = e.prevEnds, e.ends
}

// appendPieceEnds appends where r's pieces from r[from:] end: after each
// separator, and at the end of r. Eight bytes at a time: a ref is a hundred
// bytes or more, and testing each byte was a sixth of writing one.
func appendPieceEnds(ends []int, r string, from int) []int {
	b := unsafe.Slice(unsafe.StringData(r), len(r))
	i := from
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		m := zeroBytes(w^everyByte*sepTilde) | zeroBytes(w^everyByte*sepUnderscore) | zeroBytes(w^everyByte*sepPlus)
		for ; m != 0; m &= m - 1 {
			ends = append(ends, i+bits.TrailingZeros64(m)/8+1)
		}
	}
	for ; i < len(b); i++ {
		if refSeparator[b[i]] {
			ends = append(ends, i+1)
		}
	}
	if len(r) > from && !refSeparator[r[len(r)-1]] {
		ends = append(ends, len(r))
	}
	return ends
}

// zeroBytes has the high bit of each byte of w that is zero set, and no
// other bit.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// The bytes that end a ref's piece, and a table of them.
const (
	sepTilde      = '~'
	sepUnderscore = '_'
	sepPlus       = '+'
)

var refSeparator = [256]bool{sepTilde: true, sepUnderscore: true, sepPlus: true}

// everyByte times a byte is that byte in each byte of a word.
const everyByte = 0x0101010101010101

// commonPrefix is the length of the longest prefix a and b share.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	x, y := unsafe.Slice(unsafe.StringData(a), n), unsafe.Slice(unsafe.StringData(b), n)
	i := 0
	for ; i+8 <= n; i += 8 {
		if d := binary.LittleEndian.Uint64(x[i:]) ^ binary.LittleEndian.Uint64(y[i:]); d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for i < n && x[i] == y[i] {
		i++
	}
	return i
}

func (e *encoder) list(ss []string) {
	e.uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.str(&e.fieldStrs, s)
	}
}

// time writes t as a delta from base and returns the base for the next
// time of its kind: t's seconds, or base again for the zero time.
func (e *encoder) time(t time.Time, base int64, z *zoneSlot) (int64, error) {
	if t.IsZero() {
		e.buf = append(e.buf, zoneNone)
		return base, nil
	}
	sec, nsec := t.Unix(), t.Nanosecond()
	var head uint64
	if t.Location() == time.UTC {
		head = zoneUTC
	} else {
		_, off := t.Zone()
		switch {
		case off < -maxZoneOffset || off > maxZoneOffset:
			return 0, fmt.Errorf("time %v: zone offset %ds out of range", t, off)
		case z.set && off == z.off:
			head = zoneSame
		case off%60 == 0:
			head = zoneNew | zigzag(int64(off/60))<<offsetShift
		default:
			head = zoneNew | offsetSeconds | zigzag(int64(off))<<offsetShift
		}
		z.off, z.set = off, true
	}
	d := sec - base
	if d%60 == 0 {
		head |= deltaMinutes
		d /= 60
	}
	if nsec != 0 {
		head |= hasNanos
	}
	e.uvarint(head)
	e.varint(d)
	if nsec != 0 {
		e.uvarint(uint64(nsec))
	}
	return sec, nil
}

// sameStored tells whether a and b are stored alike: the same instant, both
// UTC or at the same offset.
func sameStored(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero() && b.IsZero()
	}
	if !a.Equal(b) || (a.Location() == time.UTC) != (b.Location() == time.UTC) {
		return false
	}
	_, ao := a.Zone()
	_, bo := b.Zone()
	return ao == bo
}

// expectedDuration is what a segment's duration is unless the source says
// otherwise.
func expectedDuration(depart, arrive time.Time) int {
	if depart.IsZero() || arrive.IsZero() {
		return 0
	}
	return int((arrive.Unix() - depart.Unix()) / 60)
}

// flightNumber reports the number n when fn is carrier followed by n.
func flightNumber(carrier, fn string) (uint64, bool) {
	d, ok := strings.CutPrefix(fn, carrier)
	if !ok || d == "" || len(d) > 19 || (len(d) > 1 && d[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(d[i]-'0')
	}
	return n, true
}

// distinct numbers the distinct values of a batch. Hashing whole segments
// and fares is slow, so a short key finds the latest value with it, and next
// chains to the earlier ones with the same key. The keys are in a table of
// their own, open-addressed: a map of them was a tenth of encoding a batch.
type distinct[K distinctKey, V comparable] struct {
	slots []distinctSlot[K] // a power of two, at most half full
	keys  int
	items []*V
	next  []int32
}

type distinctSlot[K any] struct {
	key  K
	head int32 // the latest item with key, plus one; 0: an empty slot
}

// distinctKey is a key of distinct's table, which hashes itself: a few
// multiplications, where maphash.Comparable through the generic hasher of
// a map of keys took 14 ns (a micro-benchmark), for every segment and fare
// a batch holds.
type distinctKey interface {
	comparable
	hash(seed uint64) uint64
}

// distinctSeed seeds the hash of distinct's keys, so that the answers of
// a supplier cannot be made to collide in every process.
var distinctSeed = rand.Uint64()

// mix2 hashes two words: the keys of the codec's distinct tables, and the
// builder's trips by their parts (partsKey).
func mix2(a, b, seed uint64) uint64 {
	h := (a ^ seed) * 0x9e3779b97f4a7c15
	h = (h ^ h>>32 ^ b) * 0xbf58476d1ce4e5b9
	return h ^ h>>31
}

// find returns the number of the value equal to v, or numbers v and
// returns -1.
func (t *distinct[K, V]) find(k K, v *V) int32 {
	if 2*(t.keys+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	i := k.hash(distinctSeed) & mask
	for t.slots[i].head != 0 && t.slots[i].key != k {
		i = (i + 1) & mask
	}
	s := &t.slots[i]
	if s.head != 0 {
		for j := s.head - 1; j >= 0; j = t.next[j] {
			if *t.items[j] == *v {
				return j
			}
		}
	} else {
		s.key = k
		t.keys++
	}
	t.next = append(t.next, s.head-1)
	t.items = append(t.items, v)
	s.head = int32(len(t.items))
	return -1
}

func (t *distinct[K, V]) grow() {
	old := t.slots
	t.slots = make([]distinctSlot[K], max(64, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.head == 0 {
			continue
		}
		i := s.key.hash(distinctSeed) & mask
		for t.slots[i].head != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

func (t *distinct[K, V]) reset() {
	clear(t.slots)
	clear(t.items)
	t.keys, t.items, t.next = 0, t.items[:0], t.next[:0]
}

// segmentKey is a segment's departure and the first bytes of its flight
// number (brands and classes of a flight share one).
type segmentKey struct{ depart, flight int64 }

func (k segmentKey) hash(seed uint64) uint64 { return mix2(uint64(k.depart), uint64(k.flight), seed) }

func keyOfSegment(s *supplier.Segment) segmentKey {
	var f int64
	for i := 0; i < len(s.FlightNumber) && i < 8; i++ {
		f = f<<8 | int64(s.FlightNumber[i])
	}
	return segmentKey{s.DepartAt.Unix(), f}
}

// fareKey is a fare's amounts.
type fareKey struct{ base, taxes, airportTax, fuelSurcharge int64 }

func (k fareKey) hash(seed uint64) uint64 {
	return mix2(uint64(k.base)^uint64(k.airportTax)<<17, uint64(k.taxes)^uint64(k.fuelSurcharge)<<17, seed)
}

// changed is a field's bit in a record's mask and whether the field
// differs from the previous record's.
type changed struct {
	bit  uint64
	diff bool
}

// maskOf is the mask of the fields that changed, those written.
func maskOf(fields []changed) uint64 {
	var mask uint64
	for _, f := range fields {
		if f.diff {
			mask |= f.bit
		}
	}
	return mask
}

func (e *encoder) segment(s *supplier.Segment) error {
	if i := e.segs.find(keyOfSegment(s), s); i >= 0 {
		e.uvarint(uint64(i) << 1)
		return nil
	}
	p := &e.prevSeg
	var mask uint64
	var num uint64
	if s.FlightNumber != p.FlightNumber {
		var ok bool
		if num, ok = flightNumber(s.Carrier, s.FlightNumber); ok {
			mask |= sFlightNumber
		} else {
			mask |= sFlightCode
		}
	}
	mask |= maskOf([]changed{
		{sCarrier, s.Carrier != p.Carrier},
		{sAircraft, s.Aircraft != p.Aircraft},
		{sSeatsLeft, s.SeatsLeft != p.SeatsLeft},
		{sFareBasis, s.FareBasis != p.FareBasis},
		{sBookingClass, s.BookingClass != p.BookingClass},
		{sDuration, s.DurationMinutes != expectedDuration(s.DepartAt, s.ArriveAt)},
		{sOrigin, s.Origin != p.Origin},
		{sDestination, s.Destination != p.Destination},
		{sCabin, s.Cabin != p.Cabin},
		{sOperatingCarrier, s.OperatingCarrier != p.OperatingCarrier},
	})
	e.uvarint(mask<<1 | 1)
	e.optStr(mask, sCarrier, s.Carrier)
	switch {
	case mask&sFlightNumber != 0:
		e.uvarint(num)
		e.n[cMadeBytes] += uint64(len(s.FlightNumber))
	case mask&sFlightCode != 0:
		e.str(&e.fieldStrs, s.FlightNumber)
	}
	e.optStr(mask, sOperatingCarrier, s.OperatingCarrier)
	e.optStr(mask, sOrigin, s.Origin)
	e.optStr(mask, sDestination, s.Destination)
	dep, err := e.time(s.DepartAt, e.lastDepart, &e.departs)
	if err != nil {
		return fmt.Errorf("segment %s departure: %w", s.FlightNumber, err)
	}
	e.lastDepart = dep
	if _, err := e.time(s.ArriveAt, dep, &e.arrives); err != nil {
		return fmt.Errorf("segment %s arrival: %w", s.FlightNumber, err)
	}
	e.optInt(mask, sDuration, s.DurationMinutes)
	e.optStr(mask, sCabin, s.Cabin)
	e.optStr(mask, sBookingClass, s.BookingClass)
	e.optStr(mask, sFareBasis, s.FareBasis)
	e.optStr(mask, sAircraft, s.Aircraft)
	e.optInt(mask, sSeatsLeft, s.SeatsLeft)
	e.prevSeg = *s
	return nil
}

func (e *encoder) fare(f *supplier.PaxFare) {
	if i := e.fares.find(fareKey{f.Base, f.Taxes, f.AirportTax, f.FuelSurcharge}, f); i >= 0 {
		e.uvarint(uint64(i) << 1)
		return
	}
	p := &e.prevFare
	mask := maskOf([]changed{
		{fBase, f.Base != p.Base},
		{fTaxes, f.Taxes != p.Taxes},
		{fAirportTax, f.AirportTax != p.AirportTax},
		{fFuelSurcharge, f.FuelSurcharge != p.FuelSurcharge},
		{fType, f.Type != p.Type},
		{fCount, f.Count != p.Count},
	})
	e.uvarint(mask<<1 | 1)
	e.optStr(mask, fType, f.Type)
	e.optInt(mask, fCount, f.Count)
	e.optAmount(mask, fBase, f.Base)
	e.optAmount(mask, fTaxes, f.Taxes)
	e.optAmount(mask, fAirportTax, f.AirportTax)
	e.optAmount(mask, fFuelSurcharge, f.FuelSurcharge)
	e.prevFare = *f
}

func (e *encoder) journeys(js [][]int) {
	consecutive, k := true, 0
	for _, j := range js {
		for _, x := range j {
			consecutive = consecutive && x == k
			k++
		}
	}
	h := uint64(len(js)) << 1
	if consecutive {
		h |= 1
	}
	e.uvarint(h)
	for _, j := range js {
		e.uvarint(uint64(len(j)))
		if !consecutive {
			for _, x := range j {
				e.varint(int64(x))
			}
		}
	}
}

func sameRestrictions(a, b *supplier.Restrictions) bool {
	return a.MinAge == b.MinAge && a.MaxAge == b.MaxAge && slices.Equal(a.Documents, b.Documents) &&
		slices.Equal(a.EligibleCountries, b.EligibleCountries) && slices.Equal(a.IneligibleCountries, b.IneligibleCountries)
}

func (e *encoder) offer(o *supplier.Offer) error {
	p := e.prevOffer
	mask := maskOf([]changed{
		{oValidatingCarrier, o.ValidatingCarrier != p.ValidatingCarrier},
		{oBrand, o.Brand != p.Brand},
		{oBaggage, o.Baggage != p.Baggage},
		{oConditions, o.Conditions != p.Conditions},
		{oRestrictions, !sameRestrictions(&o.Restrictions, &p.Restrictions)},
		{oTicketing, o.TicketingMinutes != p.TicketingMinutes},
		{oJourneys, !slices.EqualFunc(o.Journeys, p.Journeys, slices.Equal)},
		{oSupplier, o.Supplier != p.Supplier},
		{oCurrency, o.Currency != p.Currency},
		{oExpiresAt, !sameStored(o.ExpiresAt, p.ExpiresAt)},
	})
	e.uvarint(mask)
	e.ref(o.Ref)
	e.uvarint(uint64(len(o.Segments)))
	e.n[cOfferSegments] += uint64(len(o.Segments))
	for i := range o.Segments {
		if err := e.segment(&o.Segments[i]); err != nil {
			return err
		}
	}
	e.uvarint(uint64(len(o.Fares)))
	e.n[cOfferFares] += uint64(len(o.Fares))
	for i := range o.Fares {
		e.fare(&o.Fares[i])
	}
	// The decoder materialises copied journeys and lists too.
	e.n[cJourneys] += uint64(len(o.Journeys))
	for _, j := range o.Journeys {
		e.n[cJourneyIndexes] += uint64(len(j))
	}
	r := &o.Restrictions
	e.n[cListItems] += uint64(len(r.Documents) + len(r.EligibleCountries) + len(r.IneligibleCountries))

	if mask&oJourneys != 0 {
		e.journeys(o.Journeys)
	}
	e.optStr(mask, oValidatingCarrier, o.ValidatingCarrier)
	e.optStr(mask, oBrand, o.Brand)
	if mask&oBaggage != 0 {
		b := &o.Baggage
		e.varint(int64(b.CheckedPieces))
		e.varint(int64(b.CheckedKg))
		e.varint(int64(b.CabinPieces))
		e.varint(int64(b.CabinKg))
	}
	if mask&oConditions != 0 {
		c := &o.Conditions
		var flags uint64
		if c.Refundable {
			flags |= 1
		}
		if c.Changeable {
			flags |= 2
		}
		e.uvarint(flags)
		e.amount(c.RefundFee)
		e.amount(c.ChangeFee)
	}
	if mask&oRestrictions != 0 {
		e.varint(int64(r.MinAge))
		e.varint(int64(r.MaxAge))
		e.list(r.Documents)
		e.list(r.EligibleCountries)
		e.list(r.IneligibleCountries)
	}
	e.optInt(mask, oTicketing, o.TicketingMinutes)
	e.optStr(mask, oSupplier, o.Supplier)
	e.optStr(mask, oCurrency, o.Currency)
	if mask&oExpiresAt != 0 {
		exp, err := e.time(o.ExpiresAt, e.lastExpiry, &e.expiries)
		if err != nil {
			return fmt.Errorf("expiry: %w", err)
		}
		e.lastExpiry = exp
	}
	e.prevOffer = o
	return nil
}

// unmarshalParts decodes a batch in the current format. Parts get no Seq.
func unmarshalParts(b []byte) ([]Part, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("empty payload: %w", errCorrupt)
	}
	if b[0] != partsVersion {
		return nil, fmt.Errorf("unknown payload version %d", b[0])
	}
	d := &decoder{b: b, off: 1, prev: &zeroOffer}
	var n counts
	for i := range n {
		n[i] = d.uvarint()
	}
	if d.err != nil {
		return nil, fmt.Errorf("counts: %w", d.err)
	}
	if err := d.allocate(&n); err != nil {
		return nil, err
	}
	out := make([]Part, n[cParts])
	for i := range out {
		d.part(&out[i])
		if d.err != nil {
			return nil, fmt.Errorf("part %d at byte %d: %w", i, d.failedAt, d.err)
		}
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// decoder reads one payload. Reads past a failure return zero values and
// leave the first error in err, so callers check it once per part; every
// count read is checked against the space allocated for it before use.
type decoder struct {
	b             []byte
	off, failedAt int
	err           error
	// text is b as one string: literals are substrings of it, so a
	// payload's strings cost one allocation.
	text string
	// made holds the strings decoding builds (refs, concatenations, hex,
	// flight numbers). It is allocated once at its declared size and never
	// rewritten, so strings cut from it stay valid.
	made    strings.Builder
	madeCap int

	fieldStrs, refStrs []string
	segs               []int32 // distinct segments, as their place in segArena
	fares              []int32 // distinct fares, as their place in fareArena

	// Arenas the offers' slices are carved from.
	offerArena   arena[supplier.Offer]
	segArena     arena[supplier.Segment]
	fareArena    arena[supplier.PaxFare]
	journeyArena arena[[]int]
	indexArena   arena[int]
	listArena    arena[string]

	prev               *supplier.Offer
	prevSeg            supplier.Segment
	prevFare           supplier.PaxFare
	pieces, tokens     []string
	digits             []byte
	lastDepart, expiry int64

	departs, arrives, expiries zoneSlot

	// Offsets' locations: time.FixedZone allocates for offsets that are not
	// whole hours. Local's offset is remembered with the span it holds for.
	zones                        []zoneLoc
	localFrom, localTo, localOff int64
	localKnown                   bool
}

type zoneLoc struct {
	off int
	loc *time.Location
}

// maxZones bounds the zone cache, so a crafted payload of many offsets
// costs allocations, not a quadratic search.
const maxZones = 16

// allocate checks what the counts claim against the payload's size and
// allocates the arenas.
func (d *decoder) allocate(n *counts) error {
	rest := uint64(len(d.b) - d.off)
	// Each of these takes at least a byte of the payload.
	for _, i := range []int{cParts, cFieldStrings, cRefStrings, cSegments, cFares, cOffers, cOfferSegments, cOfferFares} {
		if n[i] > rest {
			return fmt.Errorf("count %d of %d exceeds the payload: %w", i, n[i], errCorrupt)
		}
	}
	budget := min(uint64(maxDecoded), maxExpansion*uint64(len(d.b)))
	for _, c := range n {
		if c > budget {
			return fmt.Errorf("decoded size exceeds %d bytes: %w", budget, errCorrupt)
		}
	}
	size := uint64(len(d.b)) + n[cMadeBytes] +
		n[cParts]*uint64(unsafe.Sizeof(Part{})) +
		(n[cFieldStrings]+n[cRefStrings]+n[cListItems])*uint64(unsafe.Sizeof("")) +
		(n[cSegments]+n[cFares])*uint64(unsafe.Sizeof(int32(0))) +
		n[cOffers]*uint64(unsafe.Sizeof(supplier.Offer{})) +
		n[cOfferSegments]*uint64(unsafe.Sizeof(supplier.Segment{})) +
		n[cOfferFares]*uint64(unsafe.Sizeof(supplier.PaxFare{})) +
		n[cJourneys]*uint64(unsafe.Sizeof([]int{})) +
		n[cJourneyIndexes]*uint64(unsafe.Sizeof(0))
	if size > budget {
		return fmt.Errorf("decoded size %d exceeds %d bytes: %w", size, budget, errCorrupt)
	}
	d.text = string(d.b)
	d.madeCap = int(n[cMadeBytes])
	d.made.Grow(d.madeCap)
	d.fieldStrs = make([]string, 0, n[cFieldStrings])
	d.refStrs = make([]string, 0, n[cRefStrings])
	d.segs = make([]int32, 0, n[cSegments])
	d.fares = make([]int32, 0, n[cFares])
	d.offerArena.items = make([]supplier.Offer, n[cOffers])
	d.segArena.items = make([]supplier.Segment, n[cOfferSegments])
	d.fareArena.items = make([]supplier.PaxFare, n[cOfferFares])
	d.journeyArena.items = make([][]int, n[cJourneys])
	d.indexArena.items = make([]int, n[cJourneyIndexes])
	d.listArena.items = make([]string, n[cListItems])
	return nil
}

// finish checks that the payload held exactly what its counts said.
func (d *decoder) finish() error {
	switch {
	case d.off != len(d.b):
		return fmt.Errorf("%d bytes after the last part: %w", len(d.b)-d.off, errCorrupt)
	case len(d.fieldStrs) != cap(d.fieldStrs) || len(d.refStrs) != cap(d.refStrs) || d.made.Len() != d.madeCap,
		len(d.segs) != cap(d.segs) || len(d.fares) != cap(d.fares),
		d.offerArena.left() != 0 || d.segArena.left() != 0 || d.fareArena.left() != 0,
		d.journeyArena.left() != 0 || d.indexArena.left() != 0 || d.listArena.left() != 0:
		return fmt.Errorf("counts do not match the content: %w", errCorrupt)
	}
	return nil
}

// arena holds a batch's values of one kind, allocated at the declared
// count, from which each offer's slice of them is carved in turn.
type arena[T any] struct {
	items []T
	pos   int
}

// left is how many items are not carved yet.
func (a *arena[T]) left() int { return len(a.items) - a.pos }

// take carves the next n items, capacity-limited so that appending to one
// offer's slice never overwrites the next.
func (a *arena[T]) take(n int) []T {
	out := a.items[a.pos : a.pos+n : a.pos+n]
	a.pos += n
	return out
}

// read reads a length and carves that many items; nil for none, or more
// than are left.
func (a *arena[T]) read(d *decoder, what string) []T {
	n := d.count(a.left(), what)
	if n == 0 {
		return nil
	}
	return a.take(n)
}

// copyOf carves a copy of src, an earlier offer's: each offer has its own.
func (a *arena[T]) copyOf(d *decoder, src []T, what string) []T {
	if len(src) == 0 {
		return nil
	}
	if len(src) > a.left() {
		d.corrupt("more %s than declared", what)
		return nil
	}
	out := a.take(len(src))
	copy(out, src)
	return out
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err, d.failedAt = err, d.off
	}
	d.off = len(d.b)
}

func (d *decoder) corrupt(format string, args ...any) {
	if d.err == nil {
		d.fail(fmt.Errorf(format+": %w", append(args, errCorrupt)...))
	}
}

func (d *decoder) uvarint() uint64 {
	if d.off < len(d.b) {
		if c := d.b[d.off]; c < 0x80 {
			d.off++
			return uint64(c)
		}
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		if n == 0 {
			d.fail(io.ErrUnexpectedEOF)
		} else {
			d.corrupt("varint overflows 64 bits")
		}
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint() int64 { return unzigzag(d.uvarint()) }

var pow10 = [4]int64{1, 10, 100, 1000}

func (d *decoder) amount() int64 {
	x := d.uvarint()
	if x == 1 {
		return d.varint()
	}
	m, p := unzigzag(x>>2), pow10[x&3]
	if (m == 0 && p != 1) || m > math.MaxInt64/p || m < math.MinInt64/p {
		d.corrupt("amount %#x", x)
		return 0
	}
	return m * p
}

// count reads a length and checks that avail can hold it.
func (d *decoder) count(avail int, what string) int {
	n := d.uvarint()
	if n > uint64(avail) {
		d.corrupt("%d %s, more than declared", n, what)
		return 0
	}
	return int(n)
}

// room checks that made can take n more bytes.
func (d *decoder) room(n int) bool {
	if n > d.madeCap-d.made.Len() {
		d.corrupt("built strings longer than declared")
		return false
	}
	return true
}

// madeSince is what made holds from start on.
func (d *decoder) madeSince(start int) string { return d.made.String()[start:] }

// str reads a string of tab; a concatenation's parts may not be
// concatenations themselves.
func (d *decoder) str(tab *[]string, inner bool) string {
	v := d.uvarint()
	if v&1 == 0 {
		if i := v >> 1; i < uint64(len(*tab)) {
			return (*tab)[i]
		}
		d.corrupt("string %d not yet defined", v>>1)
		return ""
	}
	var s string
	switch v & 7 {
	case strRaw, strRaw | 4:
		n := v >> 2
		if n > uint64(len(d.b)-d.off) {
			d.fail(io.ErrUnexpectedEOF)
			return ""
		}
		s = d.text[d.off : d.off+int(n)]
		d.off += int(n)
		if n == 0 {
			return ""
		}
	case strHex:
		n := v >> 3
		if n == 0 || n > uint64(len(d.b)-d.off) {
			d.corrupt("hex string of %d bytes", n)
			return ""
		}
		if !d.room(2 * int(n)) {
			return ""
		}
		start := d.made.Len()
		for _, c := range d.b[d.off : d.off+int(n)] {
			d.made.WriteByte(hexDigits[c>>4])
			d.made.WriteByte(hexDigits[c&15])
		}
		d.off += int(n)
		s = d.madeSince(start)
	default: // strCompound
		n := v >> 3
		if inner || n == 0 || n > uint64(len(d.b)-d.off) {
			d.corrupt("concatenation of %d strings", n)
			return ""
		}
		d.tokens = d.tokens[:0]
		for range n {
			d.tokens = append(d.tokens, d.str(tab, true))
		}
		if s = d.join(d.tokens); d.err != nil {
			return ""
		}
	}
	if len(*tab) == cap(*tab) {
		d.corrupt("more strings than declared")
		return ""
	}
	*tab = append(*tab, s)
	return s
}

func (d *decoder) fstr() string { return d.str(&d.fieldStrs, false) }

// optStr, optInt and optAmount read a field of a record when its bit is set
// in the mask; otherwise the field keeps the previous record's value.
func (d *decoder) optStr(mask, bit uint64, s *string) {
	if mask&bit != 0 {
		*s = d.fstr()
	}
}

func (d *decoder) optInt(mask, bit uint64, v *int) {
	if mask&bit != 0 {
		*v = int(d.varint())
	}
}

func (d *decoder) optAmount(mask, bit uint64, v *int64) {
	if mask&bit != 0 {
		*v = d.amount()
	}
}

func (d *decoder) ref() string {
	kept := d.count(len(d.pieces), "kept ref pieces")
	n := d.count(len(d.b)-d.off, "ref pieces")
	d.pieces = d.pieces[:kept]
	for range n {
		d.pieces = append(d.pieces, d.str(&d.refStrs, false))
	}
	return d.join(d.pieces)
}

// join builds the concatenation of parts in made; "" once decoding failed
// or made has no room for it.
func (d *decoder) join(parts []string) string {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	if d.err != nil || !d.room(size) {
		return ""
	}
	start := d.made.Len()
	for _, p := range parts {
		d.made.WriteString(p)
	}
	return d.madeSince(start)
}

func (d *decoder) list() []string {
	out := d.listArena.read(d, "list items")
	for i := range out {
		out[i] = d.fstr()
	}
	return out
}

// copyList gives an offer its own copy of the previous offer's list.
func (d *decoder) copyList(src []string) []string { return d.listArena.copyOf(d, src, "list items") }

// time reads a time written as a delta from base and returns it with the
// base for the next time of its kind. Locations follow time.UnmarshalBinary,
// so an answer reads the same as it did through gob: UTC stays UTC, an
// offset that is Local's at that instant becomes Local, any other a
// nameless fixed zone.
func (d *decoder) time(base int64, z *zoneSlot) (time.Time, int64) {
	head := d.uvarint()
	if head == zoneNone {
		return time.Time{}, base
	}
	delta := d.varint()
	if head&deltaMinutes != 0 {
		delta *= 60
	}
	sec := base + delta
	var nsec int64
	if head&hasNanos != 0 {
		n := d.uvarint()
		if n == 0 || n >= 1e9 {
			d.corrupt("nanoseconds %d", n)
			return time.Time{}, base
		}
		nsec = int64(n)
	}
	kind := head & 3
	if kind != zoneNew && head>>4 != 0 {
		d.corrupt("time head %#x", head)
		return time.Time{}, base
	}
	var off int64
	switch kind {
	case zoneUTC:
		t := time.Unix(sec, nsec).UTC()
		if t.IsZero() {
			d.corrupt("zero time in UTC")
			return time.Time{}, base
		}
		return t, sec
	case zoneSame:
		if !z.set {
			d.corrupt("no previous offset")
			return time.Time{}, base
		}
		off = int64(z.off)
	case zoneNew:
		off = unzigzag(head >> offsetShift)
		if head&offsetSeconds == 0 {
			if off < -maxZoneOffset/60 || off > maxZoneOffset/60 {
				d.corrupt("zone offset %d minutes", off)
				return time.Time{}, base
			}
			off *= 60
		} else if off < -maxZoneOffset || off > maxZoneOffset {
			d.corrupt("zone offset %ds", off)
			return time.Time{}, base
		}
	default:
		d.corrupt("time head %#x", head)
		return time.Time{}, base
	}
	z.off, z.set = int(off), true
	t := time.Unix(sec, nsec) // in Local
	if off != d.localOffset(sec) {
		t = t.In(d.zone(int(off)))
	}
	if t.IsZero() {
		// Only zoneNone writes the zero instant, so that it reads back
		// as the zero Time whatever its location.
		d.corrupt("zero time with a zone")
		return time.Time{}, base
	}
	return t, sec
}

func (d *decoder) localOffset(sec int64) int64 {
	if d.localKnown && d.localFrom <= sec && sec < d.localTo {
		return d.localOff
	}
	t := time.Unix(sec, 0)
	_, off := t.Zone()
	from, to := t.ZoneBounds()
	d.localFrom, d.localTo, d.localOff, d.localKnown = math.MinInt64, math.MaxInt64, int64(off), true
	if !from.IsZero() {
		d.localFrom = from.Unix()
	}
	if !to.IsZero() {
		d.localTo = to.Unix()
	}
	return d.localOff
}

func (d *decoder) zone(off int) *time.Location {
	for _, z := range d.zones {
		if z.off == off {
			return z.loc
		}
	}
	loc := time.FixedZone("", off)
	if len(d.zones) < maxZones {
		d.zones = append(d.zones, zoneLoc{off, loc})
	}
	return loc
}

func (d *decoder) part(p *Part) {
	p.Name = d.fstr()
	p.Supplier = d.fstr()
	p.Status = d.fstr()
	p.Offers = d.offerArena.read(d, "offers")
	for i := range p.Offers {
		if d.err != nil {
			return
		}
		d.offer(&p.Offers[i])
	}
}

func (d *decoder) offer(o *supplier.Offer) {
	p := d.prev
	mask := d.uvarint()
	if mask > oAll {
		d.corrupt("offer mask %#x", mask)
		return
	}
	o.Ref = d.ref()
	first := d.segArena.pos
	o.Segments = d.segArena.read(d, "segments")
	for i := range o.Segments {
		d.segment(first + i)
	}
	first = d.fareArena.pos
	o.Fares = d.fareArena.read(d, "fares")
	for i := range o.Fares {
		d.fare(first + i)
	}
	if mask&oJourneys != 0 {
		o.Journeys = d.journeys()
	} else {
		o.Journeys = d.copyJourneys(p.Journeys)
	}
	o.ValidatingCarrier, o.Brand, o.Baggage, o.Conditions = p.ValidatingCarrier, p.Brand, p.Baggage, p.Conditions
	o.TicketingMinutes, o.Supplier, o.Currency, o.ExpiresAt = p.TicketingMinutes, p.Supplier, p.Currency, p.ExpiresAt
	d.optStr(mask, oValidatingCarrier, &o.ValidatingCarrier)
	d.optStr(mask, oBrand, &o.Brand)
	if mask&oBaggage != 0 {
		o.Baggage = supplier.Baggage{
			CheckedPieces: int(d.varint()),
			CheckedKg:     int(d.varint()),
			CabinPieces:   int(d.varint()),
			CabinKg:       int(d.varint()),
		}
	}
	if mask&oConditions != 0 {
		flags := d.uvarint()
		if flags > 3 {
			d.corrupt("condition flags %#x", flags)
		}
		o.Conditions = supplier.Conditions{Refundable: flags&1 != 0, Changeable: flags&2 != 0}
		o.Conditions.RefundFee = d.amount()
		o.Conditions.ChangeFee = d.amount()
	}
	r := &o.Restrictions
	if mask&oRestrictions != 0 {
		r.MinAge = int(d.varint())
		r.MaxAge = int(d.varint())
		r.Documents = d.list()
		r.EligibleCountries = d.list()
		r.IneligibleCountries = d.list()
	} else {
		pr := &p.Restrictions
		r.MinAge, r.MaxAge = pr.MinAge, pr.MaxAge
		r.Documents = d.copyList(pr.Documents)
		r.EligibleCountries = d.copyList(pr.EligibleCountries)
		r.IneligibleCountries = d.copyList(pr.IneligibleCountries)
	}
	d.optInt(mask, oTicketing, &o.TicketingMinutes)
	d.optStr(mask, oSupplier, &o.Supplier)
	d.optStr(mask, oCurrency, &o.Currency)
	if mask&oExpiresAt != 0 {
		o.ExpiresAt, d.expiry = d.time(d.expiry, &d.expiries)
	}
	d.prev = o
}

// segment decodes the segment at pos in segArena: a copy of an earlier
// distinct one, or a new one.
func (d *decoder) segment(pos int) {
	mask, ok := readDistinct(d, d.segArena.items, &d.segs, pos, sAll, sFlightNumber|sFlightCode, "segment")
	if !ok {
		return
	}
	s := &d.segArena.items[pos]
	*s = d.prevSeg
	d.optStr(mask, sCarrier, &s.Carrier)
	switch {
	case mask&sFlightNumber != 0:
		n := d.uvarint()
		d.digits = strconv.AppendUint(d.digits[:0], n, 10)
		if !d.room(len(s.Carrier) + len(d.digits)) {
			return
		}
		start := d.made.Len()
		d.made.WriteString(s.Carrier)
		d.made.Write(d.digits)
		s.FlightNumber = d.madeSince(start)
	case mask&sFlightCode != 0:
		s.FlightNumber = d.fstr()
	}
	d.optStr(mask, sOperatingCarrier, &s.OperatingCarrier)
	d.optStr(mask, sOrigin, &s.Origin)
	d.optStr(mask, sDestination, &s.Destination)
	var dep int64
	s.DepartAt, dep = d.time(d.lastDepart, &d.departs)
	d.lastDepart = dep
	s.ArriveAt, _ = d.time(dep, &d.arrives)
	if mask&sDuration != 0 {
		s.DurationMinutes = int(d.varint())
	} else {
		s.DurationMinutes = expectedDuration(s.DepartAt, s.ArriveAt)
	}
	d.optStr(mask, sCabin, &s.Cabin)
	d.optStr(mask, sBookingClass, &s.BookingClass)
	d.optStr(mask, sFareBasis, &s.FareBasis)
	d.optStr(mask, sAircraft, &s.Aircraft)
	d.optInt(mask, sSeatsLeft, &s.SeatsLeft)
	d.prevSeg = *s
}

// readDistinct reads the head of a segment or fare at pos of items: a copy
// of the i-th distinct one, set there, or the mask of a new one (ok), which
// it numbers in distinct and whose fields follow. No two of exclusive's
// bits may be set.
func readDistinct[T any](d *decoder, items []T, distinct *[]int32, pos int, all, exclusive uint64, what string) (mask uint64, ok bool) {
	v := d.uvarint()
	if v&1 == 0 {
		if i := v >> 1; i < uint64(len(*distinct)) {
			items[pos] = items[(*distinct)[i]]
			return 0, false
		}
		d.corrupt("%s %d not yet defined", what, v>>1)
		return 0, false
	}
	mask = v >> 1
	if mask > all || bits.OnesCount64(mask&exclusive) > 1 {
		d.corrupt("%s mask %#x", what, mask)
		return 0, false
	}
	if len(*distinct) == cap(*distinct) {
		d.corrupt("more %ss than declared", what)
		return 0, false
	}
	*distinct = append(*distinct, int32(pos))
	return mask, true
}

func (d *decoder) fare(pos int) {
	mask, ok := readDistinct(d, d.fareArena.items, &d.fares, pos, fAll, 0, "fare")
	if !ok {
		return
	}
	f := &d.fareArena.items[pos]
	*f = d.prevFare
	d.optStr(mask, fType, &f.Type)
	d.optInt(mask, fCount, &f.Count)
	d.optAmount(mask, fBase, &f.Base)
	d.optAmount(mask, fTaxes, &f.Taxes)
	d.optAmount(mask, fAirportTax, &f.AirportTax)
	d.optAmount(mask, fFuelSurcharge, &f.FuelSurcharge)
	d.prevFare = *f
}

func (d *decoder) journeys() [][]int {
	h := d.uvarint()
	consecutive := h&1 != 0
	if h>>1 > uint64(d.journeyArena.left()) {
		d.corrupt("%d journeys, more than declared", h>>1)
		return nil
	}
	n := int(h >> 1)
	if n == 0 {
		return nil
	}
	out := d.journeyArena.take(n)
	k := 0
	for i := range out {
		j := d.indexArena.read(d, "journey indexes")
		for x := range j {
			if consecutive {
				j[x] = k
				k++
			} else {
				j[x] = int(d.varint())
			}
		}
		out[i] = j
	}
	return out
}

// copyJourneys gives an offer its own copy of the previous offer's journeys.
func (d *decoder) copyJourneys(src [][]int) [][]int {
	out := d.journeyArena.copyOf(d, src, "journeys")
	for i, s := range out {
		out[i] = d.indexArena.copyOf(d, s, "journey indexes")
	}
	return out
}

// wirePart is a part as the gob format stored it.
type wirePart struct {
	Name     string
	Supplier string
	Status   string
	Offers   []supplier.Offer
}

// decodeGobParts reads a batch written before the current format, by an
// instance of an older release during a rolling deploy.
func decodeGobParts(b []byte) ([]Part, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	var w []wirePart
	if err := gob.NewDecoder(io.LimitReader(zr, maxDecoded)).Decode(&w); err != nil {
		return nil, err
	}
	out := make([]Part, len(w))
	for i, p := range w {
		out[i] = Part{Name: p.Name, Supplier: p.Supplier, Status: p.Status, Offers: p.Offers}
	}
	return out, nil
}
